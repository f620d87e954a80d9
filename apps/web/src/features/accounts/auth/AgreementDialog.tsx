import { Button, Modal, Typography } from "antd";
import { useTranslation } from "react-i18next";

export const AGREEMENT_SECTIONS = ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"] as const;

/** The platform service agreement, in the interface language. */
export function AgreementText() {
  const { t } = useTranslation();
  return (
    <Typography>
      <Typography.Paragraph type="secondary">{t("agreement.intro")}</Typography.Paragraph>
      {AGREEMENT_SECTIONS.map((s) => (
        <section key={s}>
          <Typography.Title level={5}>{t(`agreement.${s}.title`)}</Typography.Title>
          <Typography.Paragraph>{t(`agreement.${s}.body`)}</Typography.Paragraph>
        </section>
      ))}
      <Typography.Paragraph type="secondary">{t("agreement.updated")}</Typography.Paragraph>
    </Typography>
  );
}

export function AgreementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      width={760}
      title={t("agreement.title")}
      onCancel={onClose}
      zIndex={1100}
      styles={{ body: { maxHeight: "62vh", overflowY: "auto", paddingRight: 8 } }}
      footer={
        <Button type="primary" onClick={onClose}>
          {t("agreement.close")}
        </Button>
      }
    >
      <AgreementText />
    </Modal>
  );
}
