import { Alert } from "antd";
import { useState, type ReactNode } from "react";

const KEY_PREFIX = "pageHint.dismissed.";

function isDismissed(id: string): boolean {
  try {
    return window.localStorage.getItem(KEY_PREFIX + id) === "1";
  } catch {
    return false;
  }
}

/**
 * A dismissible banner at the top of a page (spec 01 §2). Dismissal is remembered per page id in
 * localStorage, so a hint the user closed stays closed.
 */
export function PageHint({
  id,
  title,
  description,
  type = "info",
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  type?: "info" | "warning" | "success";
}) {
  const [hidden, setHidden] = useState(() => isDismissed(id));
  if (hidden) return null;
  return (
    <Alert
      type={type}
      showIcon
      title={title}
      description={description}
      closable={{
        onClose: () => {
          try {
            window.localStorage.setItem(KEY_PREFIX + id, "1");
          } catch {
            /* private mode: forget on reload */
          }
          setHidden(true);
        },
      }}
    />
  );
}
