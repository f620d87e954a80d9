import { useQuery } from "@tanstack/react-query";
import { App, Button, Card, Flex, Form, Input, Select, Tag, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import { whitelistReq, type WhitelistEntry, type WhitelistScope } from "@tessera/contracts";
import { catalogApi, catalogKeys } from "../catalog/api";
import { RealNameTag } from "../accounts/RealNameTag";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { useAddWhitelist, useRemoveWhitelist, whitelistsQuery } from "./whitelistApi";
import { formatTime } from "../../ui/time";

interface Values {
  purchaserId: string;
  goodsId?: string;
  remark?: string;
}

/** The supplier's own goods, for the goods whitelist's picker and filter. */
function useOwnGoods(enabled: boolean) {
  const query = { page: 1, pageSize: 1000 };
  const { data } = useQuery({
    queryKey: catalogKeys.products(query),
    queryFn: () => catalogApi.products(query),
    enabled,
  });
  return (data?.list ?? []).map((g) => ({ value: String(g.id), label: `${g.name} (${g.id})` }));
}

/**
 * A supplier's whitelist of purchasers (scope "vendor": every goods; "goods": the goods named). A
 * whitelisted purchaser may buy without a docking; removing the entry stops new orders at once.
 */
export function WhitelistList({ scope }: { scope: WhitelistScope }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(whitelistReq);
  const add = useAddWhitelist();
  const remove = useRemoveWhitelist();
  const goods = useOwnGoods(scope === "goods");
  const submit = async (v: Values) => {
    const result = await add.mutateAsync({
      purchaserId: v.purchaserId.trim(),
      scope,
      ...(scope === "goods" && v.goodsId && { goodsId: v.goodsId }),
      ...(v.remark?.trim() && { remark: v.remark.trim() }),
    });
    if (reportFailure(result, form, ["purchaserId", "goodsId"], (m) => void message.error(m))) return;
    void message.success(t("whitelist.added"));
    form.resetFields();
  };
  const columns: TableColumnsType<WhitelistEntry> = [
    {
      title: t("whitelist.col.purchaser"),
      key: "purchaser",
      render: (_: unknown, e) => `${e.purchaserName} (${e.purchaserId})`,
    },
    {
      title: t("docking.col.realName"),
      dataIndex: "purchaserRealNameState",
      render: (v: WhitelistEntry["purchaserRealNameState"]) => <RealNameTag state={v} />,
    },
    ...(scope === "goods"
      ? [
          {
            title: t("whitelist.col.goods"),
            key: "goods",
            render: (_: unknown, e: WhitelistEntry) => `${e.goodsName ?? ""} (${e.goodsId ?? ""})`,
          },
        ]
      : []),
    {
      title: t("whitelist.col.docked"),
      dataIndex: "docked",
      render: (v: boolean) => (
        <Tag color={v ? "success" : "default"}>{t(v ? "whitelist.docked" : "whitelist.notDocked")}</Tag>
      ),
    },
    { title: t("whitelist.col.remark"), dataIndex: "remark", render: (v: string) => v || "-" },
    {
      title: t("whitelist.col.state"),
      dataIndex: "active",
      render: (v: boolean) => (
        <Tag color={v ? "success" : "default"}>{t(v ? "whitelist.active" : "whitelist.removed")}</Tag>
      ),
    },
    {
      title: t("whitelist.col.createdAt"),
      dataIndex: "createdAt",
      render: (v: string) => formatTime(v),
    },
    {
      title: t("whitelist.col.removedAt"),
      dataIndex: "removedAt",
      render: (v: string | null) => (v ? formatTime(v) : "-"),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, e) =>
        e.active ? (
          <Button
            type="link"
            size="small"
            danger
            data-testid={`whitelist-remove-${e.purchaserId}`}
            onClick={() => {
              modal.confirm({
                title: t("whitelist.removeTitle"),
                content: t("whitelist.removeBody", { name: e.purchaserName }),
                okButtonProps: { danger: true },
                onOk: () => remove.mutateAsync(e.id),
              });
            }}
          >
            {t("whitelist.remove")}
          </Button>
        ) : null,
    },
  ];
  const header = (
    <Flex vertical gap={16}>
      <PageHint
        id={`business.whitelist.${scope}`}
        title={t(`whitelist.hint.${scope}Title`)}
        description={t(`whitelist.hint.${scope}`)}
      />
      <Card variant="borderless" title={t("whitelist.new")}>
        <Form<Values>
          form={form}
          layout="inline"
          onFinish={(v) => void submit(v)}
          requiredMark={false}
          style={{ rowGap: 12 }}
        >
          <Form.Item name="purchaserId" rules={[rule("purchaserId")]}>
            <Input
              placeholder={t("whitelist.purchaserId")}
              inputMode="numeric"
              maxLength={18}
              style={{ width: 180 }}
              data-testid="whitelist-purchaser"
            />
          </Form.Item>
          {scope === "goods" && (
            <Form.Item name="goodsId" rules={[{ required: true, message: t("msg:whitelist.goodsEmpty") }]}>
              <Select
                showSearch
                optionFilterProp="label"
                placeholder={t("whitelist.goods")}
                options={goods}
                style={{ width: 240 }}
                data-testid="whitelist-goods"
              />
            </Form.Item>
          )}
          <Form.Item name="remark">
            <Input placeholder={t("whitelist.col.remark")} maxLength={200} style={{ width: 200 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={add.isPending} data-testid="whitelist-add">
            {t("whitelist.add")}
          </Button>
        </Form>
      </Card>
    </Flex>
  );
  return (
    <ListPage<WhitelistEntry>
      header={header}
      rowKey="id"
      columns={columns}
      search={{
        input: { keys: [{ value: "purchaserId", label: t("whitelist.purchaserId"), numeric: true }] },
        select: {
          keys: [
            {
              value: "active",
              label: t("whitelist.col.state"),
              options: [
                { value: "true", label: t("whitelist.active") },
                { value: "false", label: t("whitelist.removed") },
              ],
            },
          ],
        },
        ...(scope === "goods" && {
          selectT: { keys: [{ value: "goodsId", label: t("whitelist.goods"), options: goods }] },
        }),
      }}
      query={(state) =>
        whitelistsQuery({
          page: state.page,
          pageSize: state.pageSize,
          scope,
          purchaserId: state.values.inpVal,
          active: typeof state.values.selVal === "string" ? state.values.selVal : undefined,
          goodsId: scope === "goods" && typeof state.values.selValT === "string" ? state.values.selValT : undefined,
        })
      }
    />
  );
}
