import { App, Button, Card, DatePicker, Flex, Form, Input, Radio, Tag, type TableColumnsType } from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useTranslation } from "react-i18next";
import { brandAuthReq, type BrandAuth } from "@tessera/contracts";
import { brandAuthsQuery, useGrantBrandAuth, useRevokeBrandAuth } from "./api";
import { useAction } from "../../ui/form/useAction";
import { useZodRules } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { formatTime } from "../../ui/time";

interface Values {
  granteeId: string;
  kind: "purchaser" | "provider";
  remark?: string;
  validUntil?: Dayjs | null;
}

/**
 * `/business/BrandAuthorization`: the brand owner authorises a purchaser (to buy its goods without a
 * docking) or a service provider (to sell them), until a date or until revoked.
 */
export default function BrandAuthorization() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<Values>();
  const rule = useZodRules(brandAuthReq);
  const grant = useGrantBrandAuth();
  const revoke = useRevokeBrandAuth();
  const { submit } = useAction(form, {
    run: (v: Values) =>
      grant.mutateAsync({
        granteeId: v.granteeId.trim(),
        kind: v.kind,
        ...(v.remark?.trim() && { remark: v.remark.trim() }),
        ...(v.validUntil && { validUntil: v.validUntil.format("YYYY-MM-DD") }),
      }),
    fields: ["granteeId", "kind"],
    success: t("brandAuth.granted"),
    then: () => form.resetFields(),
  });
  const columns: TableColumnsType<BrandAuth> = [
    { title: t("brandAuth.grantee"), key: "grantee", render: (_: unknown, a) => `${a.granteeName} (${a.granteeId})` },
    { title: t("brandAuth.kind"), dataIndex: "kind", render: (v: BrandAuth["kind"]) => t(`brandAuth.kinds.${v}`) },
    {
      title: t("brandAuth.validUntil"),
      dataIndex: "validUntil",
      render: (v: string | null) => v ?? t("brandAuth.noEnd"),
    },
    { title: t("brandAuth.remark"), dataIndex: "remark", render: (v: string) => v || "-" },
    {
      title: t("brandAuth.state"),
      dataIndex: "active",
      render: (v: boolean) => (
        <Tag color={v ? "success" : "default"}>{t(v ? "brandAuth.active" : "brandAuth.revoked")}</Tag>
      ),
    },
    {
      title: t("brandAuth.createdAt"),
      dataIndex: "createdAt",
      render: (v: string) => formatTime(v),
    },
    {
      title: t("funds.col.actions"),
      key: "actions",
      render: (_: unknown, a) =>
        a.active ? (
          <Button
            type="link"
            size="small"
            danger
            onClick={() => {
              modal.confirm({
                title: t("brandAuth.revokeTitle"),
                content: t("brandAuth.revokeBody", { name: a.granteeName }),
                okButtonProps: { danger: true },
                onOk: () => revoke.mutateAsync(a.id),
              });
            }}
          >
            {t("brandAuth.revoke")}
          </Button>
        ) : null,
    },
  ];
  const header = (
    <Flex vertical gap={16}>
      <PageHint id="business.BrandAuthorization" title={t("brandAuth.hintTitle")} description={t("brandAuth.hint")} />
      <Card variant="borderless" title={t("brandAuth.new")}>
        <Form<Values>
          form={form}
          layout="inline"
          initialValues={{ kind: "purchaser" }}
          onFinish={(v) => void submit(v)}
          requiredMark={false}
          style={{ rowGap: 12 }}
        >
          <Form.Item name="granteeId" rules={[rule("granteeId")]}>
            <Input placeholder={t("brandAuth.granteeId")} inputMode="numeric" maxLength={18} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="kind">
            <Radio.Group
              optionType="button"
              options={[
                { value: "purchaser", label: t("brandAuth.kinds.purchaser") },
                { value: "provider", label: t("brandAuth.kinds.provider") },
              ]}
            />
          </Form.Item>
          <Form.Item name="validUntil">
            <DatePicker placeholder={t("brandAuth.validUntil")} disabledDate={(d) => d.isBefore(dayjs(), "day")} />
          </Form.Item>
          <Form.Item name="remark">
            <Input placeholder={t("brandAuth.remark")} maxLength={200} style={{ width: 200 }} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={grant.isPending}>
            {t("brandAuth.grant")}
          </Button>
        </Form>
      </Card>
    </Flex>
  );
  return (
    <ListPage<BrandAuth>
      header={header}
      rowKey="id"
      columns={columns}
      search={{}}
      query={(state) => brandAuthsQuery({ page: state.page, pageSize: state.pageSize, side: "brand" })}
    />
  );
}
