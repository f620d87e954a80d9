import { Button, Card, Descriptions, List, Modal, Space, Tag, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { AgreementTemplateReply, SignedAgreement } from "@tessera/contracts";
import { fetchSignedAgreement, useAgreementTemplates, useMyMenus } from "./api";
import { SignAgreementDialog } from "./SignAgreementDialog";
import { formatTime } from "../../ui/time";

/** A signed agreement exactly as signed, with who, when, from where, and its digest. */
function SignedView({ doc, onClose }: { doc: SignedAgreement | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={doc !== null} title={doc?.title} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      {doc && (
        <>
          <div
            style={{
              whiteSpace: "pre-wrap",
              background: "#fafafa",
              border: "1px solid #f0f0f0",
              borderRadius: 6,
              padding: 12,
              marginBottom: 16,
            }}
          >
            {doc.body}
          </div>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t("onboarding.agreement.versionLabel")}>{doc.version}</Descriptions.Item>
            <Descriptions.Item label={t("onboarding.agreement.signer")}>{doc.signerEmail}</Descriptions.Item>
            <Descriptions.Item label={t("onboarding.agreement.phone")}>{doc.phone}</Descriptions.Item>
            <Descriptions.Item label={t("onboarding.agreement.signedAt")}>
              {formatTime(doc.signedAt, { seconds: true })}
            </Descriptions.Item>
            <Descriptions.Item label="IP">{doc.ip ?? "-"}</Descriptions.Item>
            <Descriptions.Item label="SHA-256">
              <Typography.Text code style={{ fontSize: 11, wordBreak: "break-all" }}>
                {doc.bodySha256}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
        </>
      )}
    </Modal>
  );
}

/** The agreements a merchant signs (reserve authorisation, e-signature): state, sign, view as signed. */
export function AgreementsCard() {
  const { t } = useTranslation();
  const { data: templates, isPending } = useAgreementTemplates();
  const [signing, setSigning] = useState<AgreementTemplateReply | null>(null);
  const [viewing, setViewing] = useState<SignedAgreement | null>(null);
  // Sub-accounts see the agreements; the main account signs them.
  const { data: menus } = useMyMenus();
  const owner = menus === null;
  const view = async (id: string) => {
    const r = await fetchSignedAgreement(id);
    if (r?.ok) setViewing(r.data);
  };
  return (
    <Card variant="borderless" title={t("onboarding.agreement.title")} loading={isPending}>
      <List
        dataSource={templates ?? []}
        renderItem={(a) => (
          <List.Item
            data-testid={`agreement-${a.kind}`}
            actions={[
              a.signed ? (
                <Button key="view" type="link" onClick={() => void view(a.signed?.id ?? "")}>
                  {t("onboarding.agreement.view")}
                </Button>
              ) : !owner ? (
                <Typography.Text key="owner" type="secondary">
                  {t("onboarding.agreement.ownerOnly")}
                </Typography.Text>
              ) : (
                <Button
                  key="sign"
                  type="primary"
                  size="small"
                  onClick={() => setSigning(a)}
                  data-testid={`agreement-open-${a.kind}`}
                >
                  {t("onboarding.agreement.sign")}
                </Button>
              ),
            ]}
          >
            <List.Item.Meta
              title={
                <Space>
                  {a.title}
                  <Tag color={a.signed ? "success" : "warning"}>
                    {a.signed ? t("onboarding.agreement.stateSigned") : t("onboarding.agreement.statePending")}
                  </Tag>
                </Space>
              }
              description={
                a.signed
                  ? t("onboarding.agreement.signedOn", {
                      version: a.version,
                      date: formatTime(a.signed.signedAt),
                    })
                  : t("onboarding.agreement.version", { version: a.version })
              }
            />
          </List.Item>
        )}
      />
      <SignAgreementDialog agreement={signing} onClose={() => setSigning(null)} />
      <SignedView doc={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
