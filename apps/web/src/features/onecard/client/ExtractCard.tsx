import { App, Button, Card, Form, Input, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { OcBagReply } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { Shell } from "../../customer/Shell";

/**
 * `/client/extractCard`: the customer takes a card they hold (a physical or e-card given to them) into
 * their card bag with its number and password; from then on the card is bound to their phone.
 */
export default function ExtractCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const submit = async (v: { cardNo: string; password: string }) => {
    setBusy(true);
    const r = await customerCall<OcBagReply>("POST", "/api/mall/onecard/bind", { body: v });
    setBusy(false);
    if (r.ok) {
      void message.success(t("onecard.added"));
      void navigate("/client/cardBag");
    }
  };
  return (
    <Shell title={t("onecard.title.extract")} tabs={false}>
      <Card>
        <Typography.Paragraph type="secondary">{t("onecard.extractHint")}</Typography.Paragraph>
        <Form
          layout="vertical"
          onFinish={(v: { cardNo: string; password: string }) => void submit(v)}
          requiredMark={false}
        >
          <Form.Item
            name="cardNo"
            label={t("onecard.cardNo")}
            rules={[{ required: true, message: t("onecard.cardNoRequired") }]}
          >
            <Input inputMode="numeric" maxLength={19} size="large" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t("onecard.password")}
            rules={[{ required: true, message: t("onecard.passwordRequired") }]}
          >
            <Input.Password size="large" maxLength={32} autoComplete="off" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy}>
            {t("onecard.addCard")}
          </Button>
        </Form>
      </Card>
    </Shell>
  );
}
