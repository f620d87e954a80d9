import { useQuery } from "@tanstack/react-query";
import { Card, Col, Flex, Row, Statistic, Table, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { WriteAccountRow } from "@tessera/contracts";
import { ExportButton } from "../../ui/list/useExport";
import { formatMoney } from "../../ui/money";
import { PageHint } from "../../ui/PageHint";
import { storeKeys, writeOffApi } from "./api";

/** `/business/WriteAccount`: the brand's redemption account (spec 01 §7 accounts): per store, what was redeemed, settled and still to settle. */
export default function WriteAccount() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: storeKeys.account({}), queryFn: () => writeOffApi.account({}) });
  const total = q.data?.total;
  const columns: TableColumnsType<WriteAccountRow> = [
    { title: t("writeoff.store"), dataIndex: "storeName" },
    { title: t("writeoff.count"), dataIndex: "count", align: "right" },
    {
      title: t("writeoff.value"),
      dataIndex: "value",
      align: "right",
      render: (m: WriteAccountRow["value"]) => formatMoney(m),
    },
    {
      title: t("writeoff.settledAmount"),
      dataIndex: "settled",
      align: "right",
      render: (m: WriteAccountRow["settled"]) => formatMoney(m),
    },
    {
      title: t("writeoff.unsettledAmount"),
      dataIndex: "unsettled",
      align: "right",
      render: (m: WriteAccountRow["unsettled"]) => formatMoney(m),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.WriteAccount"
        title={t("writeoff.title.account")}
        description={t("writeoff.hint.account")}
      />
      <Row gutter={[16, 16]}>
        <Col flex="1 1 200px">
          <Card>
            <Statistic title={t("writeoff.count")} value={total?.count ?? 0} />
          </Card>
        </Col>
        <Col flex="1 1 200px">
          <Card>
            <Statistic title={t("writeoff.value")} value={total ? formatMoney(total.value) : "-"} />
          </Card>
        </Col>
        <Col flex="1 1 200px">
          <Card>
            <Statistic
              title={t("writeoff.settledAmount")}
              value={total ? formatMoney(total.settled) : "-"}
              data-testid="account-settled"
            />
          </Card>
        </Col>
        <Col flex="1 1 200px">
          <Card>
            <Statistic title={t("writeoff.unsettledAmount")} value={total ? formatMoney(total.unsettled) : "-"} />
          </Card>
        </Col>
        <Col flex="1 1 200px">
          <Card>
            <Statistic
              title={t("writeoff.awaitingRedemption")}
              value={q.data ? formatMoney(q.data.awaitingRedemption) : "-"}
              data-testid="account-awaiting"
            />
          </Card>
        </Col>
      </Row>
      <Card variant="borderless">
        <Flex justify="end" style={{ marginBottom: 12 }}>
          <ExportButton<WriteAccountRow>
            columns={columns}
            rows={q.data?.rows ?? []}
            name={document.title.split(" - ")[0] ?? ""}
          />
        </Flex>
        <Table<WriteAccountRow>
          rowKey="storeId"
          loading={q.isFetching}
          dataSource={q.data?.rows ?? []}
          pagination={false}
          columns={columns}
        />
      </Card>
    </Flex>
  );
}
