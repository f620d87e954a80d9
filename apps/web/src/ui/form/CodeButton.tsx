import { Button } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/**
 * "Send code" button with the resend countdown. `onSend` validates the target, asks the server and
 * resolves to the `resendIn` seconds of its reply (null when nothing was sent).
 */
export function CodeButton({ onSend, disabled }: { onSend: () => Promise<number | null>; disabled?: boolean }) {
  const { t } = useTranslation();
  const [until, setUntil] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [sending, setSending] = useState(false);

  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => {
      const n = Date.now();
      setNow(n);
      if (n >= until) setUntil(null);
    }, 500);
    return () => clearInterval(timer);
  }, [until]);

  const remaining = until === null ? 0 : Math.max(0, Math.ceil((until - now) / 1000));

  const send = async () => {
    setSending(true);
    try {
      const seconds = await onSend();
      if (seconds && seconds > 0) {
        const n = Date.now();
        setNow(n);
        setUntil(n + seconds * 1000);
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      onClick={() => void send()}
      loading={sending}
      disabled={disabled || remaining > 0}
      style={{ minWidth: 128 }}
    >
      {remaining > 0 ? t("code.resendIn", { seconds: remaining }) : t("code.send")}
    </Button>
  );
}
