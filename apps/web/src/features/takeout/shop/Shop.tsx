import { MinusOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import {
  Alert,
  Button,
  Card,
  Checkbox,
  DatePicker,
  Divider,
  Flex,
  Form,
  Input,
  InputNumber,
  Radio,
  Spin,
  Tag,
  Typography,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useEffect, useMemo, useState } from "react";
import { takeoutDraft, type DraftLine, type TakeoutDraft } from "./draft";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { PaymentProviderView, TakeoutItem, TakeoutMenu, TakeoutOrder } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { customerCall, customerSession, newRequestKey } from "../../customer/customerApi";
import { h5Url } from "../../payments/PayAction";
import { Shell } from "../../customer/Shell";

type CartLine = DraftLine;
const lineKey = (l: Pick<CartLine, "kind" | "id" | "options">) => `${l.kind}:${l.id}:${JSON.stringify(l.options)}`;

/** The options of one item, chosen before it goes into the cart. */
function ItemCard({
  item,
  currency,
  onAdd,
}: {
  item: TakeoutItem;
  currency: TakeoutMenu["shop"]["deliveryFee"]["currency"];
  onAdd: (options: string[][], unit: number) => void;
}) {
  const { t } = useTranslation();
  const [picks, setPicks] = useState<string[][]>(() =>
    item.options.map((g) => (g.required ? [g.choices[0]?.name ?? ""] : [])),
  );
  const unit =
    item.price.amount +
    item.options.reduce(
      (a, g, i) => a + g.choices.filter((c) => picks[i]?.includes(c.name)).reduce((s, c) => s + c.price, 0),
      0,
    );
  const soldOut = item.stock !== null && item.stock === 0;
  return (
    <Card size="small" data-testid="takeout-item">
      <Flex justify="space-between" align="start" gap={8}>
        <div style={{ minWidth: 0 }}>
          <Typography.Text strong>{item.name}</Typography.Text>
          {item.description && <div style={{ color: "rgba(0,0,0,0.45)", fontSize: 12 }}>{item.description}</div>}
          {item.options.map((g, i) => (
            <div key={g.name} style={{ marginTop: 4 }}>
              <span style={{ fontSize: 12, marginRight: 4 }}>{g.name}</span>
              {g.max === 1 ? (
                <Radio.Group
                  size="small"
                  value={picks[i]?.[0]}
                  onChange={(e) => setPicks((p) => p.map((x, k) => (k === i ? [String(e.target.value)] : x)))}
                  options={g.choices.map((c) => ({
                    value: c.name,
                    label: c.price ? `${c.name} +${formatMoney({ amount: c.price, currency })}` : c.name,
                  }))}
                  optionType="button"
                />
              ) : (
                <Checkbox.Group
                  value={picks[i]}
                  onChange={(v) => setPicks((p) => p.map((x, k) => (k === i ? v.map(String).slice(0, g.max) : x)))}
                  options={g.choices.map((c) => ({ value: c.name, label: c.name }))}
                />
              )}
            </div>
          ))}
        </div>
        <Flex vertical align="end" gap={4} style={{ flex: "none" }}>
          <Typography.Text strong>{formatMoney({ amount: unit, currency })}</Typography.Text>
          {soldOut ? (
            <Tag>{t("takeout.soldOut")}</Tag>
          ) : (
            <Button
              size="small"
              type="primary"
              shape="circle"
              icon={<PlusOutlined />}
              aria-label={`${t("takeout.add")} ${item.name}`}
              onClick={() => onAdd(picks, unit)}
            />
          )}
        </Flex>
      </Flex>
    </Card>
  );
}

/**
 * `/takeout/:merchantId`: the customer's phone page of a takeout shop: the menu by category and the
 * combos, a cart, the delivery address with the phone's location, and checkout through the local
 * payment (the customer token of the card bag; a visitor logs in by SMS code first).
 */
export default function TakeoutShop() {
  const { t } = useTranslation();
  const { merchantId = "" } = useParams();
  const { data: menu, isLoading } = useQuery({
    queryKey: ["takeout-menu", merchantId],
    queryFn: async () => {
      const r = await customerCall<TakeoutMenu>("GET", `/api/mall/takeout/shops/${merchantId}`);
      return r.ok ? r.data : null;
    },
  });
  // The order being put together survives the login and a reload (issue 40, item 2).
  const [draft] = useState(() => takeoutDraft.read(merchantId));
  const [cart, setCart] = useState<CartLine[]>(draft.cart);
  const [form] = Form.useForm<{
    contactName: string;
    contactPhone: string;
    address: string;
    tableware: number;
    remark?: string;
    scheduledAt?: Dayjs;
  }>();
  const [where, setWhere] = useState<{ lat: number; lng: number } | null>(draft.where);
  const [formDraft, setFormDraft] = useState<TakeoutDraft["form"]>(draft.form);
  useEffect(
    () => takeoutDraft.write(merchantId, { cart, where, form: formDraft }),
    [cart, where, formDraft, merchantId],
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [requestKey] = useState(() => newRequestKey("tkorder"));
  // WeChat Pay or Alipay, when the deployment offers both (the first is the default).
  const [provider, setProvider] = useState<PaymentProviderView | undefined>(undefined);
  const currency = menu?.shop.deliveryFee.currency ?? "CNY";
  const goods = cart.reduce((a, l) => a + l.unit * l.quantity, 0);
  const total = goods + (cart.length ? (menu?.shop.packingFee.amount ?? 0) + (menu?.shop.deliveryFee.amount ?? 0) : 0);
  const byType = useMemo(
    () =>
      menu
        ? menu.types
            .map((ty) => ({ type: ty, items: menu.items.filter((i) => i.typeId === ty.id) }))
            .concat([
              { type: { id: "", name: t("takeout.other"), sort: 0 }, items: menu.items.filter((i) => !i.typeId) },
            ])
            .filter((g) => g.items.length)
        : [],
    [menu, t],
  );

  const add = (l: Omit<CartLine, "quantity">) =>
    setCart((c) =>
      c.some((x) => lineKey(x) === lineKey(l))
        ? c.map((x) => (lineKey(x) === lineKey(l) ? { ...x, quantity: x.quantity + 1 } : x))
        : [...c, { ...l, quantity: 1 }],
    );
  const change = (key: string, delta: number) =>
    setCart((c) =>
      c.map((x) => (lineKey(x) === key ? { ...x, quantity: x.quantity + delta } : x)).filter((x) => x.quantity > 0),
    );
  const locate = () =>
    navigator.geolocation.getCurrentPosition(
      (p) => setWhere({ lat: p.coords.latitude, lng: p.coords.longitude }),
      () => setError(t("takeout.noLocation")),
    );

  const checkout = async () => {
    const { scheduledAt, ...v } = await form.validateFields();
    if (!where) {
      setError(t("takeout.noLocation"));
      return;
    }
    if (!customerSession.token()) {
      window.location.assign(`/client/login?back=${encodeURIComponent(window.location.pathname)}`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const placed = await customerCall<TakeoutOrder>("POST", "/api/mall/takeout/orders", {
        body: {
          merchantId,
          lines: cart.map((l) => ({ kind: l.kind, id: l.id, quantity: l.quantity, options: l.options })),
          ...v,
          ...where,
          ...(scheduledAt && { scheduledAt: scheduledAt.toISOString() }),
          requestKey,
        },
        toast: false,
      });
      if (!placed.ok) {
        setError(placed.msg);
        return;
      }
      // Placed: the draft has become the order.
      takeoutDraft.clear(merchantId);
      const chosen = (menu?.payProviders?.length ?? 0) > 1 ? (provider ?? menu?.payProviders?.[0]) : undefined;
      const paid = await customerCall<TakeoutOrder>(
        "POST",
        `/api/mall/takeout/orders/${placed.data.id}/pay${chosen ? `?provider=${chosen}` : ""}`,
      );
      const orderPage = `/takeout/order/${placed.data.id}`;
      // WeChat Pay (H5): its cashier first, back to the order page, which follows the payment; Alipay: its
      // cashier (the signed URL as the server made it).
      const action = paid.ok ? paid.data.payAction : undefined;
      if (action?.kind === "h5") window.location.assign(h5Url(action.url, `${window.location.origin}${orderPage}`));
      else if (action?.kind === "redirect") window.location.assign(action.url);
      else if (paid.ok) window.location.assign(orderPage);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Shell title={menu?.shop.name ?? t("takeout.title")} needsLogin={false} tabs={false}>
      {isLoading && <Spin />}
      {menu === null && <Alert type="error" title={t("takeout.noShop")} />}
      {menu && (
        <Flex vertical gap={12}>
          <Card size="small">
            <Flex justify="space-between" wrap>
              <Tag color={menu.shop.openNow ? "green" : "default"}>
                {menu.shop.openNow ? t("takeout.openNow") : t("takeout.closedNow")}
              </Tag>
              <span style={{ fontSize: 12 }}>
                {t("takeout.minOrder", { amount: formatMoney(menu.shop.minOrder) })} ·{" "}
                {t("takeout.deliveryFee", { amount: formatMoney(menu.shop.deliveryFee) })}
              </span>
            </Flex>
            <div style={{ fontSize: 12, color: "rgba(0,0,0,0.45)" }}>
              {menu.shop.hours.map((h) => `${h.from}-${h.to}`).join(", ")}
            </div>
          </Card>
          {menu.packages.length > 0 && (
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t("takeout.combos")}
            </Typography.Title>
          )}
          {menu.packages.map((p) => (
            <Card size="small" key={p.id} data-testid="takeout-combo">
              <Flex justify="space-between" align="center" gap={8}>
                <div style={{ minWidth: 0 }}>
                  <Typography.Text strong>{p.name}</Typography.Text>
                  <div style={{ fontSize: 12, color: "rgba(0,0,0,0.45)" }}>
                    {p.items.map((i) => `${i.name} × ${i.quantity}`).join(" + ")}
                  </div>
                </div>
                <Flex align="center" gap={8} style={{ flex: "none" }}>
                  <Typography.Text strong>{formatMoney(p.price)}</Typography.Text>
                  <Button
                    size="small"
                    type="primary"
                    shape="circle"
                    icon={<PlusOutlined />}
                    aria-label={`${t("takeout.add")} ${p.name}`}
                    onClick={() => add({ kind: "package", id: p.id, name: p.name, unit: p.price.amount, options: [] })}
                  />
                </Flex>
              </Flex>
            </Card>
          ))}
          {byType.map((g) => (
            <Flex vertical gap={8} key={g.type.id || "other"}>
              <Typography.Title level={5} style={{ margin: 0 }}>
                {g.type.name}
              </Typography.Title>
              {g.items.map((i) => (
                <ItemCard
                  key={i.id}
                  item={i}
                  currency={currency}
                  onAdd={(options, unit) => add({ kind: "item", id: i.id, name: i.name, unit, options })}
                />
              ))}
            </Flex>
          ))}
          <Divider style={{ margin: "4px 0" }}>{t("takeout.cart")}</Divider>
          {cart.length === 0 && <Typography.Text type="secondary">{t("takeout.cartEmpty")}</Typography.Text>}
          {cart.map((l) => (
            <Flex key={lineKey(l)} justify="space-between" align="center" data-testid="cart-line">
              <span style={{ minWidth: 0 }}>
                {l.name} <span style={{ fontSize: 12, color: "rgba(0,0,0,0.45)" }}>{l.options.flat().join(" ")}</span>
              </span>
              <Flex align="center" gap={6} style={{ flex: "none" }}>
                <Button size="small" icon={<MinusOutlined />} onClick={() => change(lineKey(l), -1)} aria-label="-" />
                <span>{l.quantity}</span>
                <Button size="small" icon={<PlusOutlined />} onClick={() => change(lineKey(l), 1)} aria-label="+" />
                <span style={{ width: 64, textAlign: "right" }}>
                  {formatMoney({ amount: l.unit * l.quantity, currency })}
                </span>
              </Flex>
            </Flex>
          ))}
          {cart.length > 0 && (
            <>
              <Flex justify="space-between" style={{ fontSize: 12 }}>
                <span>{t("takeout.packingFee")}</span>
                <span>{formatMoney(menu.shop.packingFee)}</span>
              </Flex>
              <Flex justify="space-between" style={{ fontSize: 12 }}>
                <span>{t("takeout.deliveryFeeLabel")}</span>
                <span>{formatMoney(menu.shop.deliveryFee)}</span>
              </Flex>
              <Form
                form={form}
                layout="vertical"
                initialValues={{ tableware: 1, ...draft.form }}
                onValuesChange={(_, all) => {
                  // A chosen delivery time is not kept: it may have passed by the time the customer is back.
                  const { scheduledAt: _when, ...rest } = all;
                  setFormDraft(rest);
                }}
                requiredMark={false}
              >
                <Form.Item
                  name="contactName"
                  label={t("takeout.contactName")}
                  rules={[{ required: true, message: t("takeout.required") }]}
                >
                  <Input maxLength={30} />
                </Form.Item>
                <Form.Item
                  name="contactPhone"
                  label={t("takeout.contactPhone")}
                  rules={[{ required: true, message: t("takeout.required") }]}
                >
                  <Input inputMode="tel" maxLength={11} />
                </Form.Item>
                <Form.Item
                  name="address"
                  label={t("takeout.address")}
                  rules={[{ required: true, message: t("takeout.required") }]}
                >
                  <Input maxLength={120} />
                </Form.Item>
                <Flex align="center" gap={8} style={{ marginBottom: 16 }}>
                  <Button onClick={locate}>{t("takeout.locate")}</Button>
                  {where && <Tag color="green">{t("takeout.located")}</Tag>}
                </Flex>
                {menu.shop.tableware && (
                  <Form.Item name="tableware" label={t("takeout.tableware")}>
                    <InputNumber min={0} max={20} precision={0} />
                  </Form.Item>
                )}
                {menu.shop.scheduled && (
                  <Form.Item name="scheduledAt" label={t("takeout.scheduledAt")} extra={t("takeout.asap")}>
                    <DatePicker
                      showTime={{ format: "HH:mm", minuteStep: 15 }}
                      format="MM-DD HH:mm"
                      inputReadOnly
                      disabledDate={(d) => d.isBefore(dayjs(), "day") || d.isAfter(dayjs().add(3, "day"), "day")}
                      style={{ width: "100%" }}
                    />
                  </Form.Item>
                )}
                <Form.Item name="remark" label={t("takeout.remark")}>
                  <Input maxLength={200} />
                </Form.Item>
              </Form>
              {(menu.payProviders?.length ?? 0) > 1 && (
                <Flex vertical gap={4}>
                  <Typography.Text type="secondary">{t("payments.choose")}</Typography.Text>
                  <Radio.Group
                    block
                    optionType="button"
                    buttonStyle="solid"
                    value={provider ?? menu.payProviders?.[0]}
                    onChange={(e) => setProvider(e.target.value as PaymentProviderView)}
                    options={(menu.payProviders ?? []).map((p) => ({ value: p, label: t(`payments.${p}`) }))}
                    data-testid="pay-provider"
                  />
                </Flex>
              )}
              {error && <Alert type="error" title={error} data-testid="takeout-error" />}
              <Button type="primary" size="large" block loading={busy} onClick={() => void checkout()}>
                {t("takeout.payTotal", { amount: formatMoney({ amount: total, currency }) })}
              </Button>
            </>
          )}
        </Flex>
      )}
    </Shell>
  );
}
