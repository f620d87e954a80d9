import { Button, Flex, Image, Modal, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { QrCode } from "@tessera/contracts";
import { saveFile } from "../../api/http";
import { storeApi } from "./api";

/** Shows a QR code (the server's PNG), its link, and downloads or prints it; `children` below (a store's collection codes). */
export function QrCodeDialog({
  code,
  onClose,
  children,
}: {
  code: QrCode;
  onClose: () => void;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const [png, setPng] = useState<{ url: string; blob: Blob; fileName: string } | null>(null);
  useEffect(() => {
    let url: string | null = null;
    void storeApi.png(code).then((r) => {
      if (r?.ok) {
        url = URL.createObjectURL(r.data.blob);
        setPng({ url, blob: r.data.blob, fileName: r.data.fileName });
      }
    });
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [code]);

  const print = () => {
    if (!png) return;
    const w = window.open("", "_blank");
    if (!w) return;
    const doc = w.document;
    const img = doc.createElement("img");
    img.src = png.url;
    img.style.width = "320px";
    const caption = doc.createElement("p");
    caption.textContent = code.name;
    caption.style.font = "18px sans-serif";
    doc.body.style.textAlign = "center";
    doc.body.append(img, caption);
    img.onload = () => w.print();
  };

  return (
    <Modal
      open
      title={`${t(`stores.qrKind.${code.kind}`)} · ${code.name}`}
      onCancel={onClose}
      footer={null}
      width={420}
    >
      <Flex vertical align="center" gap={12}>
        {png ? (
          <Image src={png.url} width={260} preview={false} alt={code.name} data-testid="qr-image" />
        ) : (
          <div style={{ height: 260 }} />
        )}
        <Typography.Text copyable style={{ wordBreak: "break-all" }}>
          {code.url}
        </Typography.Text>
        <Flex gap={8}>
          <Button
            type="primary"
            disabled={!png}
            onClick={() => png && saveFile(png.blob, png.fileName)}
            data-testid="qr-download"
          >
            {t("stores.downloadPng")}
          </Button>
          <Button disabled={!png} onClick={print}>
            {t("stores.print")}
          </Button>
        </Flex>
        {children}
      </Flex>
    </Modal>
  );
}
