import { App, Button, Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { API_PERMISSIONS, REAL_NAME_STATES, type OpsMerchantRow } from "@tessera/contracts";
import { merchantsQuery, useProviderRole } from "../ops/api";
import { RealNameTag } from "./RealNameTag";
import { ListPage } from "../../ui/list/ListPage";
import { OpsOnly } from "./OpsOnly";
import { formatTime } from "../../ui/time";

/** `/ops/Merchants`: find a merchant by id, name or main account e-mail; filter by real-name and API state. */
export default function Merchants() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const providerRole = useProviderRole();
  const toggleProvider = async (row: OpsMerchantRow) => {
    const grant = !row.roles.includes("providers");
    const r = await providerRole.mutateAsync({ merchantId: row.merchantId, grant });
    if (r?.ok) void message.success(t("ops.merchants.roleSaved"));
  };
  const columns: TableColumnsType<OpsMerchantRow> = [
    { title: t("ops.merchants.id"), dataIndex: "merchantId", width: 110 },
    { title: t("ops.merchants.name"), dataIndex: "name" },
    { title: t("ops.merchants.owner"), dataIndex: "ownerEmail" },
    {
      title: t("ops.merchants.version"),
      dataIndex: "version",
      width: 120,
      render: (v: string, r) => `${t(`ops.version.${v}`)} · ${r.currency}`,
    },
    {
      title: t("ops.merchants.realName"),
      dataIndex: "realNameState",
      width: 130,
      render: (s: OpsMerchantRow["realNameState"]) => <RealNameTag state={s} />,
    },
    {
      title: t("ops.merchants.api"),
      dataIndex: "apiPermission",
      width: 110,
      render: (s: OpsMerchantRow["apiPermission"]) => (
        <Tag color={s === "opened" ? "success" : "default"}>{t(`apiPermission.${s}`)}</Tag>
      ),
    },
    {
      title: t("ops.merchants.createdAt"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("ops.merchants.provider"),
      width: 150,
      render: (_: unknown, r) => (
        <Button
          size="small"
          type={r.roles.includes("providers") ? "default" : "link"}
          loading={providerRole.isPending}
          onClick={() => void toggleProvider(r)}
        >
          {r.roles.includes("providers") ? t("ops.merchants.revokeProvider") : t("ops.merchants.grantProvider")}
        </Button>
      ),
    },
  ];
  return (
    <OpsOnly>
      <ListPage<OpsMerchantRow>
        search={{
          input: { keys: [{ value: "keyword", label: t("ops.merchants.keyword") }] },
          select: {
            keys: [
              {
                value: "realNameState",
                label: t("ops.merchants.realName"),
                options: REAL_NAME_STATES.map((s) => ({ value: s, label: t(`realName.${s}`) })),
              },
              {
                value: "apiPermission",
                label: t("ops.merchants.api"),
                options: API_PERMISSIONS.map((s) => ({ value: s, label: t(`apiPermission.${s}`) })),
              },
            ],
          },
        }}
        columns={columns}
        rowKey="merchantId"
        query={(state) => {
          const key = state.values.selKey ?? "realNameState";
          const val = typeof state.values.selVal === "string" ? state.values.selVal : undefined;
          return merchantsQuery({
            page: state.page,
            pageSize: state.pageSize,
            keyword: state.values.inpVal,
            [key]: val,
          });
        }}
      />
    </OpsOnly>
  );
}
