import { Button, Card, Descriptions, Flex, Form, Input, Tag } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { digitsOnly, type OcCard } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { ocSaleApi } from "./api";
import { STATE_COLOR, time } from "./labels";

/**
 * `/sale/oneCardQuery`: looks one of the purchaser's own cards up by its full number (from an
 * extraction or the card itself): state, balance, held amount, validity, whether it is in a card bag.
 * A card that is not the purchaser's is "unknown" (the server's message).
 */
export default function OneCardQueryPage() {
  const { t } = useTranslation();
  const [card, setCard] = useState<OcCard | null>(null);
  const [busy, setBusy] = useState(false);
  const lookup = async ({ cardNo }: { cardNo: string }) => {
    setBusy(true);
    try {
      const r = await ocSaleApi.lookup(cardNo);
      setCard(r?.ok ? r.data : null);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="sale.oneCardQuery"
        title={t("onecard.bo.page.oneCardQuery")}
        description={t("onecard.bo.hintQuery")}
      />
      <Card variant="borderless">
        <Form layout="inline" onFinish={(v: { cardNo: string }) => void lookup(v)} style={{ rowGap: 12 }}>
          <Form.Item
            name="cardNo"
            label={t("onecard.cardNo")}
            normalize={(v: string) => digitsOnly(v).slice(0, 16)}
            rules={[{ required: true, len: 16, message: t("msg:onecard.cardNoInvalid") }]}
          >
            <Input inputMode="numeric" style={{ width: 240 }} data-testid="query-card-no" />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={busy}>
              {t("onecard.query")}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      {card && (
        <Card variant="borderless">
          <Descriptions column={{ xs: 1, md: 2, xl: 3 }} bordered size="small">
            <Descriptions.Item label={t("onecard.cardNo")}>{card.cardNo}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.product")}>{card.productName}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.stateLabel")}>
              <Tag color={STATE_COLOR[card.state]}>{t(`onecard.state.${card.state}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t("onecard.faceValue")}>{formatMoney(card.faceValue)}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.balance")}>
              <span data-testid="query-balance">{formatMoney(card.balance)}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t("onecard.bo.held")}>{formatMoney(card.held)}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.bo.activatedAt")}>{time(card.activatedAt)}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.expiresAt")}>{time(card.expiresAt)}</Descriptions.Item>
            <Descriptions.Item label={t("onecard.bo.inBag")}>
              {card.inBag ? t("onecard.bo.yes") : t("onecard.bo.no")}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
    </Flex>
  );
}
