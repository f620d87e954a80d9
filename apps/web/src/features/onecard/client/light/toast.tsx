import { useSyncExternalStore } from "react";

/** The light card bag's toasts: a line at the top for three seconds (antd's message, without antd). */
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

export function Toasts() {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  return (
    <div className="cb-toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`cb-toast cb-toast-${t.kind}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
