import { DeleteOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Flex, Form, Input, InputNumber, Radio, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { MallOrder } from "@tessera/contracts";
import { formatMoney } from "../../components/money";
import { customerSession, newRequestKey } from "../client/customerApi";
import { cart, mallCall, type CartLine } from "./mallApi";
import { MallShell, themeOf, useAppId } from "./MallShell";

/**
 * `/mall/:appId/cart`: the cart and checkout: pay by one of the customer's cards of this brand, or by
 * the wallet (the local payment adapter); top-up goods ask for the account to top up.
 */
export default function MallCart() {
  const { t } = useTranslation();
  const appId = useAppId();
  const navigate = useNavigate();
  const [lines, setLines] = useState<CartLine[]>(() => cart.read(appId));
  const [pay, setPay] = useState<"wallet" | "card">("wallet");
  const [cardId, setCardId] = useState<string>();
  const [account, setAccount] = useState("");
  const [busy, setBusy] = useState(false);
  const [requestKey, setRequestKey] = useState(() => newRequestKey("mall"));
  const loggedIn = Boolean(customerSession.token());
  const cards = useQuery({
    queryKey: ["mall-cards", appId],
    enabled: loggedIn,
    queryFn: async () => {
      const r = await mallCall<{ id: string; cardNo: string; balance: { amount: number; currency: "CNY" } }[]>(appId, "GET", "/cards");
      return r.ok ? r.data : [];
    },
  });
  const update = (next: CartLine[]) => {
    cart.write(appId, next);
    setLines(cart.read(appId));
    setRequestKey(newRequestKey("mall"));
  };
  const total = lines.reduce((a, l) => a + l.unit * l.quantity, 0);
  const currency = lines[0]?.currency ?? "CNY";
  const needsAccount = lines.some((l) => l.delivery !== "code");
  const checkout = async () => {
    if (!loggedIn) {
      void navigate(`/mall/${encodeURIComponent(appId)}/login?back=${encodeURIComponent(`/mall/${appId}/cart`)}`);
      return;
    }
    setBusy(true);
    const r = await mallCall<MallOrder>(appId, "POST", "/checkout", {
      body: { lines: lines.map((l) => ({ kind: l.kind, id: l.id, quantity: l.quantity })), payMethod: pay, ...(pay === "card" && cardId ? { cardId } : {}), ...(needsAccount ? { topUpAccount: account.trim() } : {}), requestKey },
    });
    setBusy(false);
    if (!r.ok) return;
    cart.write(appId, []);
    void navigate(`/mall/${encodeURIComponent(appId)}/orders/${r.data.id}`);
  };
  return (
    <MallShell title={t("mall.tab.cart")}>
      {(sf) => {
        const colours = themeOf(sf);
        if (lines.length === 0) return <Empty description={t("mall.cartEmpty")} />;
        return (
          <Flex vertical gap={12}>
            {lines.map((l) => (
              <Card key={`${l.kind}-${l.id}`} size="small" data-testid="cart-line">
                <Flex justify="space-between" align="center" gap={8}>
                  <div style={{ minWidth: 0 }}>
                    <Typography.Text strong>{l.name}</Typography.Text>
                    <div style={{ color: colours.primary }}>{formatMoney({ amount: l.unit, currency: l.currency })}</div>
                  </div>
                  <Flex gap={4} align="center">
                    <InputNumber size="small" min={1} max={10} value={l.quantity} aria-label={t("mall.quantity")} onChange={(v) => update(lines.map((x) => (x === l ? { ...x, quantity: v ?? 1 } : x)))} />
                    <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={t("mall.remove")} onClick={() => update(lines.filter((x) => x !== l))} />
                  </Flex>
                </Flex>
              </Card>
            ))}
            <Card size="small">
              <Form layout="vertical">
                {needsAccount && (
                  <Form.Item label={t("mall.topUpAccount")} required>
                    <Input value={account} onChange={(e) => setAccount(e.target.value)} maxLength={64} placeholder={t("mall.topUpAccountHint")} />
                  </Form.Item>
                )}
                <Form.Item label={t("mall.payWith")}>
                  <Radio.Group value={pay} onChange={(e) => setPay(e.target.value as "wallet" | "card")}>
                    <Radio value="wallet">{t("mall.wallet")}</Radio>
                    <Radio value="card" disabled={!cards.data?.length}>
                      {t("mall.card")}
                    </Radio>
                  </Radio.Group>
                </Form.Item>
                {pay === "card" && (
                  <Radio.Group value={cardId} onChange={(e) => setCardId(String(e.target.value))}>
                    <Flex vertical gap={4}>
                      {cards.data?.map((c) => (
                        <Radio key={c.id} value={c.id}>
                          {c.cardNo} · {formatMoney(c.balance)}
                        </Radio>
                      ))}
                    </Flex>
                  </Radio.Group>
                )}
              </Form>
              {!loggedIn && <Alert type="info" showIcon title={t("mall.loginFirst")} style={{ marginBottom: 8 }} />}
              <Flex justify="space-between" align="center">
                <Typography.Text strong style={{ fontSize: 18, color: colours.primary }} data-testid="cart-total">
                  {formatMoney({ amount: total, currency })}
                </Typography.Text>
                <Button type="primary" size="large" loading={busy} style={{ background: colours.primary }} onClick={() => void checkout()}>
                  {t("mall.pay")}
                </Button>
              </Flex>
            </Card>
          </Flex>
        );
      }}
    </MallShell>
  );
}
