import { Button, Modal } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";

/** The part of the Barcode Detection API this page uses (not in TypeScript's DOM types yet). */
interface DetectedBarcode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<DetectedBarcode[]>;
}
type BarcodeDetectorCtor = new (options?: { formats?: string[] }) => BarcodeDetectorLike;

function detectorCtor(): BarcodeDetectorCtor | null {
  const ctor = (window as unknown as { BarcodeDetector?: BarcodeDetectorCtor }).BarcodeDetector;
  return typeof ctor === "function" && typeof navigator.mediaDevices?.getUserMedia === "function" ? ctor : null;
}

/** Whether this browser can scan with the camera (BarcodeDetector and a camera API); else manual entry only. */
export const canScan = () => detectorCtor() !== null;

/** Scans a QR or bar code with the rear camera and hands its text on. */
export function Scanner({ onResult, onClose }: { onResult: (text: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const Ctor = detectorCtor();
    if (!Ctor) return;
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const detector = new Ctor({ formats: ["qr_code", "code_128", "ean_13"] });
    void navigator.mediaDevices
      .getUserMedia({ video: { facingMode: "environment" } })
      .then(async (s) => {
        stream = s;
        if (stopped || !video.current) return;
        video.current.srcObject = s;
        await video.current.play();
        const tick = async () => {
          if (stopped || !video.current) return;
          const found = await detector.detect(video.current).catch(() => []);
          const text = found[0]?.rawValue;
          if (text) onResult(text);
          else timer = window.setTimeout(() => void tick(), 300);
        };
        void tick();
      })
      .catch(() => setError(t("writeoff.cameraDenied")));
    return () => {
      stopped = true;
      if (timer) window.clearTimeout(timer);
      stream?.getTracks().forEach((tr) => tr.stop());
    };
  }, [onResult, t]);
  return (
    <Modal
      open
      title={t("writeoff.scan")}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t("writeoff.cancel")}</Button>}
    >
      {error ?? <video ref={video} muted playsInline style={{ width: "100%", borderRadius: 8, background: "#000" }} />}
    </Modal>
  );
}
