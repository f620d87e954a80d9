import { Button, Flex, Image, Modal, Typography } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { PayCode } from "@tessera/contracts";
import { http, saveFile } from "../../api/http";

/** A collection code: the server's PNG, its link (the payer page), download. */
export function PayCodeDialog({ code, onClose }: { code: PayCode; onClose: () => void }) {
  const { t } = useTranslation();
  const [png, setPng] = useState<{ url: string; blob: Blob; fileName: string } | null>(null);
  useEffect(() => {
    let url: string | null = null;
    void http
      .download(`/api/card-brander/subPassports/${code.passportId}/paymentCodes/${code.id}/png`, {
        fileName: `paycode-${code.id}.png`,
      })
      .then((r) => {
        if (r?.ok) {
          url = URL.createObjectURL(r.data.blob);
          setPng({ url, blob: r.data.blob, fileName: r.data.fileName });
        }
      });
    return () => {
      if (url) URL.revokeObjectURL(url);
    };
  }, [code]);
  return (
    <Modal open title={code.name} onCancel={onClose} footer={null} width={420}>
      <Flex vertical align="center" gap={12}>
        {png ? <Image src={png.url} width={260} preview={false} alt={code.name} /> : <div style={{ height: 260 }} />}
        <Typography.Link href={code.url} target="_blank" style={{ wordBreak: "break-all" }} data-testid="paycode-link">
          {code.url}
        </Typography.Link>
        <Button type="primary" disabled={!png} onClick={() => png && saveFile(png.blob, png.fileName)}>
          {t("stores.downloadPng")}
        </Button>
      </Flex>
    </Modal>
  );
}
