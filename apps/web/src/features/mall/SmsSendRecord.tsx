import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Button, Card, Flex, Popconfirm, Statistic, Table, Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { ListPage } from "../../ui/list/ListPage";
import { formatMoney } from "../../ui/money";
import { newRequestKey } from "../onecard/api";
import { filtersOf, mallApi, mallKeys, type SmsRecordRow } from "./api";
import { formatDay, formatTime } from "../../ui/time";

/**
 * `/sale/SmsSendRecord`: the mall's SMS: what remains, the packages (count, remaining, expiry), buying a
 * package from the fund account, and every SMS the mall sent (customers' login codes).
 */
export default function SmsSendRecord() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const sms = useQuery({ queryKey: mallKeys.list("sms", {}), queryFn: () => mallApi.sms() });
  const columns: TableColumnsType<SmsRecordRow> = [
    {
      title: t("mall.bo.sentAt"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    { title: t("mall.bo.customer"), dataIndex: "phone", width: 140 },
    { title: t("mall.bo.appId"), dataIndex: "appId", width: 200 },
    { title: t("mall.bo.scene"), dataIndex: "scene", width: 140, render: () => t("mall.bo.loginCode") },
    {
      title: t("mall.stateLabel"),
      dataIndex: "state",
      width: 100,
      render: (s: SmsRecordRow["state"]) => (
        <Tag color={s === "sent" ? "green" : "red"}>{t(`mall.bo.smsState.${s}`)}</Tag>
      ),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <Card>
        <Flex gap={32} wrap align="center">
          <Statistic
            title={t("mall.bo.smsRemaining")}
            value={sms.data?.remaining ?? 0}
            valueStyle={{ fontSize: 28 }}
            data-testid="sms-remaining"
          />
          {sms.data?.offers.map((o) => (
            <Popconfirm
              key={o.code}
              title={t("mall.bo.buyConfirm", { count: o.count, price: formatMoney(o.price) })}
              onConfirm={() =>
                void mallApi
                  .buySms(o.code, newRequestKey("sms"))
                  .then(() => qc.invalidateQueries({ queryKey: mallKeys.all }))
              }
            >
              <Button>{t("mall.bo.buyPackage", { count: o.count, price: formatMoney(o.price) })}</Button>
            </Popconfirm>
          ))}
        </Flex>
        <Table
          size="small"
          style={{ marginTop: 16 }}
          rowKey="id"
          pagination={false}
          dataSource={sms.data?.packages ?? []}
          columns={[
            { title: t("mall.bo.package"), dataIndex: "count" },
            { title: t("mall.bo.remaining"), dataIndex: "remaining" },
            {
              title: t("mall.bo.price"),
              dataIndex: "price",
              render: (m: { amount: number; currency: "CNY" }) => formatMoney(m),
            },
            {
              title: t("mall.bo.expires"),
              dataIndex: "expiresAt",
              render: (v: string, r: { expired: boolean }) =>
                r.expired ? <Tag>{t("mall.bo.expired")}</Tag> : formatDay(v),
            },
          ]}
        />
      </Card>
      <ListPage<SmsRecordRow>
        rowKey="id"
        columns={columns}
        search={{ input: { keys: [{ value: "phone", label: t("mall.bo.customer"), numeric: true }] } }}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, ...filtersOf(state.values, ["phone"]) };
          return { queryKey: mallKeys.list("smsRecords", q), queryFn: () => mallApi.smsRecords(q) };
        }}
      />
    </Flex>
  );
}
