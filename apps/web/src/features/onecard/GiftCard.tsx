import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Col, Flex, Form, Input, Radio, Row, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { digitsOnly } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { newRequestKey, ocKeys, ocSaleApi } from "./api";
import { CardPicker } from "./CardPicker";
import { useSaleOptions } from "./useSaleOptions";

/**
 * `/sale/GiftCard`: sends activated cards as a gift to a mobile number (the recipient gets an SMS, logs
 * in to the card bag with that number and claims the gift) or as a link to pass on (whoever opens it
 * first, logged in, claims it); unclaimed gifts come back after 7 days.
 * The gifts and their states are in GiftReceiveRecord.
 */
export default function GiftCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const saleOptions = useSaleOptions();
  const [form] = Form.useForm<{ phone?: string; message: string }>();
  const [byLink, setByLink] = useState(false);
  const [link, setLink] = useState<string | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const [requestKey, setRequestKey] = useState(() => newRequestKey("ocgift"));
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  const send = async () => {
    if (selected.length === 0) {
      void message.warning(t("onecard.bo.chooseFirst"));
      return;
    }
    const v = await form.validateFields();
    setBusy(true);
    try {
      const r = await ocSaleApi.gift({
        cardIds: selected,
        phone: byLink ? undefined : v.phone,
        message: v.message ?? "",
        requestKey,
      });
      if (reportFailure(r, form, ["phone", "message"], (msg) => void message.error(msg)) || !r?.ok) return;
      const amount = formatMoney(r.data.amount);
      setDone(
        r.data.phone
          ? t("onecard.bo.giftedMsg", { count: r.data.cardCount, amount, phone: r.data.phone })
          : t("onecard.bo.giftedLinkMsg", { count: r.data.cardCount, amount }),
      );
      setLink(r.data.link ? `${window.location.origin}${r.data.link}` : null);
      setSelected([]);
      form.resetFields();
      setRequestKey(newRequestKey("ocgift"));
      void qc.invalidateQueries({ queryKey: ocKeys.all });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={16}>
      <PageHint id="sale.GiftCard" title={t("onecard.bo.page.GiftCard")} description={t("onecard.bo.hintGift")} />
      <Card variant="borderless" title={t("onecard.bo.chooseActivated")}>
        <CardPicker
          state="activated"
          selected={selected}
          saleOptions={saleOptions}
          onChange={(ids) => {
            setSelected(ids);
            setRequestKey(newRequestKey("ocgift"));
          }}
        />
      </Card>
      <Card variant="borderless">
        <Form form={form} layout="vertical" onValuesChange={() => setRequestKey(newRequestKey("ocgift"))}>
          <Form.Item label={t("onecard.bo.giftHow")}>
            <Radio.Group
              value={byLink ? "link" : "phone"}
              onChange={(e) => setByLink(e.target.value === "link")}
              data-testid="gift-how"
            >
              <Radio.Button value="phone">{t("onecard.bo.giftByPhone")}</Radio.Button>
              <Radio.Button value="link">{t("onecard.bo.byLink")}</Radio.Button>
            </Radio.Group>
          </Form.Item>
          <Row gutter={16}>
            {!byLink && (
              <Col xs={24} md={8}>
                <Form.Item
                  name="phone"
                  label={t("onecard.bo.giftPhone")}
                  normalize={(v: string) => digitsOnly(v).slice(0, 11)}
                  rules={[{ required: true, message: t("onecard.phoneRequired") }]}
                >
                  <Input inputMode="numeric" data-testid="gift-phone" />
                </Form.Item>
              </Col>
            )}
            <Col xs={24} md={16}>
              <Form.Item name="message" label={t("onecard.bo.giftMessage")}>
                <Input maxLength={100} showCount />
              </Form.Item>
            </Col>
          </Row>
        </Form>
        {done && (
          <Alert
            style={{ marginBottom: 16 }}
            type="success"
            showIcon
            title={done}
            description={
              link && (
                <Typography.Text copyable data-testid="gift-link">
                  {link}
                </Typography.Text>
              )
            }
            action={
              <Button
                size="small"
                type="link"
                onClick={() => void navigate("../GiftReceiveRecord", { relative: "path" })}
              >
                {t("onecard.bo.page.GiftReceiveRecord")}
              </Button>
            }
          />
        )}
        <Button type="primary" loading={busy} onClick={() => void send()} data-testid="gift-submit">
          {t("onecard.bo.sendGift")}
        </Button>
      </Card>
    </Flex>
  );
}
