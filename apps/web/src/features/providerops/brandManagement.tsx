import { useQuery } from "@tanstack/react-query";
import { Card, Flex, Table, Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { ServedBrand } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { providerOpsApi } from "./api";
import { ExportButton } from "../../ui/list/useExport";
import { formatTime } from "../../ui/time";

const STATE_COLOR: Record<ServedBrand["state"], string> = {
  on_sale: "success",
  off_sale: "warning",
  no_goods: "default",
};

/**
 * `/providers/brandManagement`: the brands of the brand merchants the provider serves: each brand's state
 * (goods on sale, none on sale, no goods), the binding it is served by and since when, and its goods.
 */
export default function BrandManagement() {
  const { t } = useTranslation();
  const { data, isFetching } = useQuery({ queryKey: ["providerOps", "brands"], queryFn: providerOpsApi.brands });
  const columns: TableColumnsType<ServedBrand> = [
    { title: t("providerOps.col.brandId"), dataIndex: "id", width: 90 },
    { title: t("providerOps.col.brand"), dataIndex: "name" },
    {
      title: t("providerOps.col.brandOwner"),
      key: "owner",
      render: (_: unknown, r) => `${r.merchantName} (${r.merchantId})`,
    },
    {
      title: t("providerOps.col.realName"),
      dataIndex: "merchantRealNameState",
      width: 120,
      render: (v: string) => (
        <Tag color={v === "verified" ? "success" : "default"}>{t(`providerOps.realName.${v}`)}</Tag>
      ),
    },
    {
      title: t("providerOps.col.brandState"),
      dataIndex: "state",
      width: 110,
      render: (v: ServedBrand["state"]) => <Tag color={STATE_COLOR[v]}>{t(`providerOps.brandState.${v}`)}</Tag>,
    },
    {
      title: t("providerOps.col.binding"),
      key: "binding",
      width: 130,
      render: (_: unknown, r) => t(`providerOps.binding.${r.binding.kind}`),
    },
    {
      title: t("providerOps.col.boundAt"),
      key: "boundAt",
      width: 180,
      render: (_: unknown, r) => formatTime(r.binding.since, { seconds: true }),
    },
    { title: t("providerOps.col.goods"), dataIndex: "goods", align: "right", width: 100 },
    { title: t("providerOps.col.onSale"), dataIndex: "onSale", align: "right", width: 100 },
    {
      title: t("providerOps.col.createdAt"),
      dataIndex: "createdAt",
      width: 180,
      render: (v: string) => formatTime(v, { seconds: true }),
    },
  ];
  return (
    <Flex vertical gap={16}>
      <PageHint
        id="providers.brandManagement"
        title={t("providerOps.hint.brandsTitle")}
        description={t("providerOps.hint.brands")}
      />
      <Card variant="borderless">
        <Flex justify="end" style={{ marginBottom: 12 }}>
          <ExportButton<ServedBrand> columns={columns} rows={data ?? []} name={document.title.split(" - ")[0] ?? ""} />
        </Flex>
        <Table<ServedBrand>
          rowKey="id"
          columns={columns}
          dataSource={data ?? []}
          loading={isFetching}
          pagination={false}
          scroll={{ x: 1300 }}
        />
      </Card>
    </Flex>
  );
}
