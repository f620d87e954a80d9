import { App, Button, Card, Form, Input, InputNumber, Radio, Space, Typography } from "antd";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  topUpAccountProblem,
  type Currency,
  type Money,
  type OrderPayingAccount,
  type TopUpAccountType,
} from "@tessera/contracts";
import { areaPrefixOf } from "../../api/area";
import { unwrap } from "../../api/errors";
import { http } from "../../api/http";
import { useSession, useUserInfo } from "../../api/common";
import { newRequestKey } from "../funds/api";
import { useApplyToPurchase, usePlaceOrder } from "./api";
import { reportFailure } from "../../ui/form/serverError";
import { SupTopUpDialog } from "../funds/SupTopUpDialog";
import { useMessageText } from "../../ui/form/useZodRules";
import { formatMoney } from "../../ui/money";

interface Values {
  quantity: number;
  topUpAccount?: string;
  payFrom: OrderPayingAccount;
}

/**
 * The purchaser's rebate account balance (the newest change of RebateFundChange). A purchaser without
 * access to its rebates (another role, a sub-account without the menu) simply has no rebate to pay with.
 */
export function useRebateBalance() {
  return useQuery({
    queryKey: ["rebate", "payBalance"],
    queryFn: async () =>
      unwrap(
        await http.get<{ balance: Money }>("/api/card-user/rebate/changes", {
          query: { page: 1, pageSize: 1 },
          overlay: false,
          toast: false,
        }),
      ).balance,
    retry: false,
  });
}

/**
 * The purchase form of one goods (spec 01 §2 screen 11): quantity (and the account to top up for direct
 * top-up goods), the total against the SUP balance, and when it is short a top-up dialog in place (the
 * reserve account's money moved to SUP) or the way to the bank top-up. When the rebate account has money
 * the purchaser chooses the paying account, each with its balance. One order number per attempt, so a
 * retried click never buys twice.
 */
export function PurchaseForm({
  goods,
}: {
  goods: {
    id: number;
    price: number;
    currency: Currency;
    perOrderMax: number;
    fromStock: boolean;
    ownPrice?: boolean;
    /** What the top-up account must be (the server checks the same rule); unknown: any account. */
    topUpAccountType?: TopUpAccountType;
  };
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const text = useMessageText();
  const { data: info } = useUserInfo();
  const { version } = useSession();
  const sale = `${areaPrefixOf(version)}/sale`;
  const [form] = Form.useForm<Values>();
  const quantity = Form.useWatch("quantity", form) ?? 1;
  const payFrom = Form.useWatch("payFrom", form) ?? "sup";
  const queryClient = useQueryClient();
  const { data: rebate } = useRebateBalance();
  const canUseRebate = rebate !== undefined && rebate.amount > 0;
  const place = usePlaceOrder();
  const apply = useApplyToPurchase();
  /** Asks the supplier for this purchaser's own price (a purchase application). */
  const applyFor = async () => {
    const result = await apply.mutateAsync({ goodsId: String(goods.id) });
    if (result?.ok) void message.success(t("application.applied"));
    else if (result) void message.error(result.msg);
  };
  const [orderNo, setOrderNo] = useState(() => `W${newRequestKey().replace(/-/g, "").slice(0, 20)}`);
  const total = goods.price * (Number.isInteger(quantity) ? quantity : 1);
  const sup = info?.balances?.sup;
  /** The rebate balance when the rebate account pays. */
  const byRebate = canUseRebate && payFrom === "rebate" ? rebate : undefined;
  const short = byRebate ? byRebate.amount < total : sup !== undefined && sup.amount < total;
  const reserve = info?.balances?.reserve;
  const [toppingUp, setToppingUp] = useState(false);

  const submit = async (v: Values) => {
    const paying = canUseRebate && v.payFrom === "rebate" ? { payFrom: "rebate" as const } : {};
    const result = await place.mutateAsync({
      goodsId: String(goods.id),
      quantity: v.quantity,
      ...(v.topUpAccount && { topUpAccount: v.topUpAccount.trim() }),
      ...paying,
      orderNo,
    });
    void queryClient.invalidateQueries({ queryKey: ["rebate"] });
    if (reportFailure(result, form, ["quantity", "topUpAccount", "payFrom"], (m) => void message.error(m))) return;
    void message.success(
      t(result?.ok && result.data.state === "success" ? "order.placedSuccess" : "order.placedProcessing"),
    );
    setOrderNo(`W${newRequestKey().replace(/-/g, "").slice(0, 20)}`);
    form.resetFields();
  };

  return (
    <Card size="small" title={t("order.buyTitle")}>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ quantity: 1, payFrom: "sup" }}
        onFinish={(v) => void submit(v)}
        requiredMark={false}
      >
        <Form.Item
          name="quantity"
          label={t("order.col.quantity")}
          rules={[
            {
              required: true,
              type: "integer",
              min: 1,
              max: goods.perOrderMax,
              message: t("order.quantityRange", { max: goods.perOrderMax }),
            },
          ]}
        >
          <InputNumber
            min={1}
            max={goods.perOrderMax}
            precision={0}
            style={{ width: 160 }}
            data-testid="buy-quantity"
          />
        </Form.Item>
        {!goods.fromStock && (
          <Form.Item
            name="topUpAccount"
            label={t("order.col.account")}
            rules={[
              { required: true, whitespace: true, message: text("order.topUpAccountEmpty") },
              {
                // The goods' account type (a mobile number, a QQ number, ...), as the order is checked.
                validator: (_: unknown, v: string | undefined) => {
                  const problem = v?.trim() ? topUpAccountProblem(goods.topUpAccountType ?? "none", v) : null;
                  return problem ? Promise.reject(new Error(text(problem))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input maxLength={64} data-testid="buy-account" />
          </Form.Item>
        )}
        <Form.Item name="payFrom" label={t("order.payFrom")} hidden={!canUseRebate}>
          <Radio.Group data-testid="buy-pay-from">
            <Space direction="vertical" size={2}>
              <Radio value="sup" data-testid="buy-pay-sup">
                {t("order.payFromSup", { amount: sup ? formatMoney(sup) : "-" })}
              </Radio>
              {rebate && (
                <Radio value="rebate" data-testid="buy-pay-rebate">
                  {t("order.payFromRebate", { amount: formatMoney(rebate) })}
                </Radio>
              )}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Space direction="vertical" size={4} style={{ marginBottom: 12 }}>
          <Typography.Text strong data-testid="buy-total">
            {t("order.total", { amount: formatMoney({ amount: total, currency: goods.currency }) })}
          </Typography.Text>
          {byRebate ? (
            <Typography.Text type={short ? "danger" : "secondary"} data-testid="buy-rebate-balance">
              {t(short ? "order.rebateShort" : "order.rebateBalance", { amount: formatMoney(byRebate) })}
            </Typography.Text>
          ) : (
            sup && (
              <Typography.Text type={short ? "danger" : "secondary"}>
                {t("order.supBalance", { amount: formatMoney(sup) })}
              </Typography.Text>
            )
          )}
          {short && !byRebate && (
            <Space>
              <Button
                size="small"
                type="primary"
                ghost
                onClick={() => setToppingUp(true)}
                disabled={!reserve?.amount}
                data-testid="buy-topup"
              >
                {t("funds.reserveTransfer")}
              </Button>
              <Link to={`${sale}/RechargeSheet`}>{t("funds.menu.topUp")}</Link>
            </Space>
          )}
        </Space>
        <Button
          type="primary"
          htmlType="submit"
          block
          loading={place.isPending}
          disabled={short}
          data-testid="buy-submit"
        >
          {t("order.buy")}
        </Button>
        {/* With its own price agreed, the purchaser has nothing left to apply for. */}
        {!goods.ownPrice && (
          <Button type="link" block onClick={() => void applyFor()} loading={apply.isPending} style={{ marginTop: 4 }}>
            {t("application.apply")}
          </Button>
        )}
      </Form>
      {toppingUp && reserve && <SupTopUpDialog reserve={reserve} onClose={() => setToppingUp(false)} />}
    </Card>
  );
}
