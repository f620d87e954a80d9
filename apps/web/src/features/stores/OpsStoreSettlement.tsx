import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, DatePicker, Descriptions, Empty, Flex, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { Dayjs } from "dayjs";
import { confirmMoney } from "../../ui/confirmMoney";
import { formatMoney } from "../../ui/money";
import { platformToday } from "../../ui/platformDay";
import { opsSettlementApi } from "./api";

/**
 * `/ops/StoreSettlement` (issue 40, item 16): the operator settles the stores' redemptions up to a day now —
 * today included, for a same-day settlement — instead of waiting for the nightly T+1 run. The page shows
 * what the run would settle (stores, redemptions, the vouchers' escrowed money) and asks with the amount.
 */
export default function OpsStoreSettlement() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const qc = useQueryClient();
  const today = platformToday();
  const [day, setDay] = useState<Dayjs>(today);
  const dayText = day.format("YYYY-MM-DD");
  const key = ["stores", "ops-settlement", dayText];
  const preview = useQuery({ queryKey: key, queryFn: () => opsSettlementApi.preview(dayText) });
  const totals = preview.data?.totals ?? [];
  const run = () =>
    confirmMoney(modal, {
      action: t("stores.opsSettle.run"),
      amount: totals.map((x) => x.amount),
      effect: t("stores.opsSettle.effect", { day: dayText }),
      testId: "ops-settle-confirm",
      onOk: async () => {
        const r = await opsSettlementApi.settle(dayText);
        if (r?.ok) {
          void message.success(t("stores.opsSettle.done", { n: r.data.documents }));
          await qc.invalidateQueries({ queryKey: ["stores", "ops-settlement"] });
        }
      },
    });
  return (
    <Card title={t("stores.opsSettle.title")}>
      <Typography.Paragraph type="secondary">{t("stores.opsSettle.hint")}</Typography.Paragraph>
      <Flex gap={12} align="center" wrap style={{ marginBottom: 16 }}>
        <span>{t("stores.opsSettle.upTo")}</span>
        <DatePicker
          value={day}
          allowClear={false}
          onChange={(d) => d && setDay(d)}
          disabledDate={(d) => d.isAfter(today, "day")}
          aria-label={t("stores.opsSettle.upTo")}
        />
      </Flex>
      {totals.length === 0 ? (
        <Empty description={t("stores.opsSettle.nothing", { day: dayText })} data-testid="ops-settle-nothing" />
      ) : (
        <Descriptions bordered size="small" column={1} data-testid="ops-settle-preview">
          {totals.map((x) => (
            <Descriptions.Item key={x.amount.currency} label={x.amount.currency}>
              {t("stores.opsSettle.line", { stores: x.stores, redemptions: x.redemptions })} ·{" "}
              <strong>{formatMoney(x.amount)}</strong>
            </Descriptions.Item>
          ))}
        </Descriptions>
      )}
      <Button
        type="primary"
        style={{ marginTop: 16 }}
        disabled={totals.length === 0}
        onClick={run}
        data-testid="ops-settle-run"
      >
        {t("stores.opsSettle.run")}
      </Button>
    </Card>
  );
}
