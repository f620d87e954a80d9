import { useQuery } from "@tanstack/react-query";
import { Button, Card, Form, Input, Select } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useSearchParams } from "react-router";
import type { OcBagReply, OcEquity, OcOrder, Page } from "@tessera/contracts";
import { topUpAccountProblem } from "@tessera/contracts/light";
import { customerCall, newRequestKey } from "../../customer/customerApi";
import { fmt } from "./format";
import { Shell } from "../../customer/Shell";

interface RechargeForm {
  cardId: string;
  goodsId: string;
  account: string;
}

/**
 * `/client/rechargeEquity`: pay for an equity (a phone bill, a video membership, a game credit) with one
 * of the customer's cards. The equities are the direct top-up goods the card's brand offers; the card pays
 * the goods' face value and the brand's purchase order tops the account up. The request key is kept for
 * the form, so a double tap pays once.
 */
export default function RechargeEquity() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<RechargeForm>();
  const [requestKey] = useState(() => newRequestKey("eq"));
  const [busy, setBusy] = useState(false);
  const cardId = Form.useWatch("cardId", form) ?? params.get("card") ?? undefined;
  const bag = useQuery({
    queryKey: ["onecard", "bag"],
    queryFn: async () => {
      const r = await customerCall<OcBagReply>("GET", "/api/mall/onecard/bag");
      return r.ok ? r.data : { cards: [], gifts: [] };
    },
  });
  const equities = useQuery({
    queryKey: ["onecard", "equities", cardId],
    enabled: cardId !== undefined,
    queryFn: async () => {
      const r = await customerCall<Page<OcEquity>>(
        "GET",
        `/api/mall/onecard/equities?cardId=${cardId ?? ""}&pageSize=100`,
      );
      return r.ok ? r.data.list : [];
    },
  });
  const goodsId = Form.useWatch("goodsId", form);
  const accountType = equities.data?.find((e) => e.goodsId === goodsId)?.topUpAccountType ?? "none";
  const cards = (bag.data?.cards ?? []).filter(
    (c) => c.state === "activated" && c.rechargeAllowed && c.balance.amount > 0,
  );
  const submit = async (v: RechargeForm) => {
    setBusy(true);
    const r = await customerCall<OcOrder>("POST", "/api/mall/onecard/recharge", {
      body: { cardId: v.cardId, goodsId: v.goodsId, account: v.account.trim(), requestKey },
    });
    setBusy(false);
    if (r.ok) void navigate(`/client/rechargeResult?order=${r.data.id}`);
  };
  return (
    <Shell title={t("onecard.title.recharge")} tabs={false}>
      <Card>
        <Form
          form={form}
          layout="vertical"
          onFinish={(v: RechargeForm) => void submit(v)}
          initialValues={{ cardId: params.get("card") ?? undefined }}
          requiredMark={false}
        >
          <Form.Item
            name="cardId"
            label={t("onecard.payWith")}
            rules={[{ required: true, message: t("onecard.chooseCard") }]}
          >
            <Select
              size="large"
              data-testid="recharge-card"
              options={cards.map((c) => ({
                value: c.id,
                label: `${c.productName} **** ${c.cardNo.slice(-4)} · ${fmt(c.balance)}`,
              }))}
              notFoundContent={t("onecard.noUsableCard")}
              onChange={() => form.setFieldValue("goodsId", undefined)}
            />
          </Form.Item>
          <Form.Item
            name="goodsId"
            label={t("onecard.equityLabel")}
            rules={[{ required: true, message: t("onecard.chooseEquity") }]}
          >
            <Select
              size="large"
              data-testid="recharge-equity"
              loading={equities.isFetching}
              options={(equities.data ?? []).map((e) => ({
                value: e.goodsId,
                label: `${e.name} · ${t("onecard.equityPrice", { price: fmt(e.price) })}`,
              }))}
              notFoundContent={t("onecard.noEquity")}
            />
          </Form.Item>
          <Form.Item
            name="account"
            label={t("onecard.account")}
            dependencies={["goodsId"]}
            rules={[
              { required: true, message: t("onecard.accountRequired") },
              {
                // The equity's account type (a mobile number, a QQ number, ...), as the recharge checks it.
                validator: (_: unknown, v: string | undefined) => {
                  const problem = v?.trim() ? topUpAccountProblem(accountType, v) : null;
                  return problem ? Promise.reject(new Error(t(problem, { ns: "msg" }))) : Promise.resolve();
                },
              },
            ]}
          >
            <Input size="large" maxLength={64} inputMode="tel" data-testid="recharge-account" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={busy} data-testid="recharge-pay">
            {t("onecard.pay")}
          </Button>
        </Form>
      </Card>
    </Shell>
  );
}
