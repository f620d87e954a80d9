import { CheckCircleFilled, UploadOutlined } from "@ant-design/icons";
import { Button, Card, Flex, Typography, Upload } from "antd";
import { useTranslation } from "react-i18next";
import type { DocumentKind } from "@tessera/contracts";
import { AuthImage } from "./AuthImage";

export interface UploadedDoc {
  documentId: string;
  url: string;
}

/** One image slot of the verification: the licence, or a side of the legal representative's ID. */
export function DocumentUpload({
  kind,
  doc,
  busy,
  onFile,
  title,
}: {
  kind: DocumentKind;
  doc: UploadedDoc | null;
  busy: boolean;
  onFile: (file: File) => void;
  /** The slot's name when it is not the domestic document's (international: a passport, a registration). */
  title?: string | undefined;
}) {
  const { t } = useTranslation();
  const label = title ?? t(`onboarding.realName.doc.${kind}`);
  return (
    <Card size="small" style={{ height: "100%" }} data-testid={`doc-${kind}`}>
      <Flex vertical align="center" gap={8}>
        <Typography.Text strong>
          {doc && <CheckCircleFilled style={{ color: "#52c41a", marginInlineEnd: 6 }} />}
          {label}
        </Typography.Text>
        {doc ? (
          <AuthImage path={doc.url} alt={label} />
        ) : (
          <div
            style={{
              width: 160,
              height: 110,
              border: "1px dashed #d9d9d9",
              borderRadius: 6,
              display: "grid",
              placeItems: "center",
            }}
          >
            <Typography.Text type="secondary" style={{ fontSize: 12, padding: 8, textAlign: "center" }}>
              {t(`onboarding.realName.docHint.${kind}`)}
            </Typography.Text>
          </div>
        )}
        <Upload
          accept="image/png,image/jpeg,image/webp,image/gif"
          showUploadList={false}
          customRequest={({ file }) => onFile(file as File)}
        >
          <Button size="small" icon={<UploadOutlined />} loading={busy} data-testid={`upload-${kind}`}>
            {doc ? t("onboarding.realName.replace") : t("onboarding.realName.upload")}
          </Button>
        </Upload>
      </Flex>
    </Card>
  );
}
