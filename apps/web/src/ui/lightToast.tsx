import { useSyncExternalStore } from "react";

/**
 * Toasts for the light entries (the storefront, the card bag): one line at the top for three seconds, as
 * antd's message, without antd. Each entry styles them with its own class prefix (`m-`, `cb-`).
 */
interface Toast {
  id: number;
  text: string;
  kind: "error" | "success";
}
let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function toast(text: string, kind: Toast["kind"]): void {
  if (!text) return;
  const id = nextId++;
  toasts = [...toasts, { id, text, kind }];
  emit();
  window.setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  }, 3000);
}

export function Toasts({ prefix }: { prefix: string }) {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  return (
    <div className={`${prefix}toasts`} role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`${prefix}toast ${prefix}toast-${t.kind}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
