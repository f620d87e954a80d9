import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Descriptions, Flex, InputNumber, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import type { StoreGoods } from "@tessera/contracts";
import { formatMoney } from "../../components/money";
import { cart, mallCall } from "./mallApi";
import { MallShell, themeOf, useAppId } from "./MallShell";

/** `/mall/:appId/item/:kind/:id`: a goods or gift pack, into the cart or straight to checkout. */
export default function MallItem() {
  const { t } = useTranslation();
  const appId = useAppId();
  const { kind = "goods", id = "" } = useParams();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [qty, setQty] = useState(1);
  const item = useQuery({
    queryKey: ["mall-item", appId, kind, id],
    queryFn: async () => {
      const r = await mallCall<StoreGoods>(appId, "GET", `/goods/${kind === "bag" ? "bag" : "goods"}/${id}`);
      return r.ok ? r.data : null;
    },
  });
  const add = (g: StoreGoods) => cart.add(appId, { kind: g.kind, id: g.id, name: g.name, unit: g.price.amount, currency: g.price.currency, delivery: g.delivery }, qty);
  return (
    <MallShell>
      {(sf) => {
        const g = item.data;
        if (!g) return <Spin />;
        const colours = themeOf(sf);
        return (
          <Card>
            <Typography.Title level={4}>{g.name}</Typography.Title>
            <div style={{ color: colours.primary, fontSize: 24, fontWeight: 600 }}>{formatMoney(g.price)}</div>
            {g.faceValue && g.faceValue.amount > g.price.amount && <Typography.Text delete type="secondary">{formatMoney(g.faceValue)}</Typography.Text>}
            <Descriptions column={1} size="small" style={{ marginTop: 12 }}>
              {g.brandName && <Descriptions.Item label={t("mall.brand")}>{g.brandName}</Descriptions.Item>}
              <Descriptions.Item label={t("mall.deliveryLabel")}>{t(`mall.delivery.${g.delivery}`)}</Descriptions.Item>
              {g.validDays !== null && <Descriptions.Item label={t("mall.validDays")}>{t("mall.days", { n: g.validDays })}</Descriptions.Item>}
              {g.items.length > 0 && <Descriptions.Item label={t("mall.contains")}>{g.items.map((i) => `${i.name} ×${i.quantity}`).join("、")}</Descriptions.Item>}
            </Descriptions>
            {g.description && <Typography.Paragraph>{g.description}</Typography.Paragraph>}
            <Flex gap={8} align="center" style={{ marginTop: 12 }}>
              <InputNumber min={1} max={10} value={qty} onChange={(v) => setQty(v ?? 1)} aria-label={t("mall.quantity")} />
              <Button
                disabled={!g.available}
                onClick={() => {
                  add(g);
                  void message.success(t("mall.added"));
                }}
              >
                {t("mall.addToCart")}
              </Button>
              <Button
                type="primary"
                disabled={!g.available}
                style={{ background: colours.primary }}
                onClick={() => {
                  add(g);
                  void navigate(`/mall/${encodeURIComponent(appId)}/cart`);
                }}
              >
                {t("mall.buyNow")}
              </Button>
            </Flex>
          </Card>
        );
      }}
    </MallShell>
  );
}
