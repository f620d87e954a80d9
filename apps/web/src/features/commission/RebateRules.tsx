import { MinusCircleOutlined, PlusOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  DatePicker,
  Flex,
  Form,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  type TableColumnsType,
} from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RebateOption, RebateRule } from "@tessera/contracts";
import { ExportButton } from "../../ui/list/useExport";
import { percent } from "../catalog/labels";
import { rebateKeys, supplierRebateApi } from "./rebatesApi";

interface TierRow {
  minVolume: number;
  rate: number;
}
interface RuleForm {
  purchaserId?: string;
  goodsId?: string;
  tiers: TierRow[];
  validFrom: Dayjs;
  validTo?: Dayjs | null;
}
const FIELDS = ["purchaserId", "goodsId", "tiers", "validFrom", "validTo"] as const;
const yuan = (minor: number) => (minor / 100).toFixed(2);

/**
 * The purchasers docked with the supplier and its goods, as name (id) options: read from the rebate
 * calls themselves, so whoever may set rules can fill them without the goods or docking pages.
 */
function usePickers(goodsKeyword: string) {
  const purchaserList = useQuery({
    queryKey: rebateKeys.purchaserOptions,
    queryFn: supplierRebateApi.purchaserOptions,
  });
  const goods = useQuery({
    queryKey: rebateKeys.goodsOptions(goodsKeyword),
    queryFn: () => supplierRebateApi.goodsOptions(goodsKeyword),
  });
  const asOption = (o: RebateOption) => ({ value: o.id, label: `${o.name} (${o.id})` });
  return {
    purchasers: (purchaserList.data ?? []).map(asOption),
    goodsOptions: (goods.data ?? []).map(asOption),
    loadingGoods: goods.isFetching,
  };
}

function RuleDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<RuleForm>();
  const [saving, setSaving] = useState(false);
  const [keyword, setKeyword] = useState("");
  const { purchasers, goodsOptions, loadingGoods } = usePickers(keyword);
  const submit = async (v: RuleForm) => {
    setSaving(true);
    try {
      const result = await supplierRebateApi.addRule({
        purchaserId: v.purchaserId ?? null,
        goodsId: v.goodsId ?? null,
        tiers: v.tiers.map((tier) => ({
          minVolume: Math.round(tier.minVolume * 100),
          rateBp: Math.round(tier.rate * 100),
        })),
        validFrom: v.validFrom.format("YYYY-MM-DD"),
        validTo: v.validTo ? v.validTo.format("YYYY-MM-DD") : null,
      });
      if (!result) return;
      if (!result.ok) {
        const field = result.data?.field?.split(".")[0];
        form.setFields([
          {
            name:
              field && (FIELDS as readonly string[]).includes(field) ? (field as (typeof FIELDS)[number]) : "validFrom",
            errors: [result.msg],
          },
        ]);
        return;
      }
      void message.success(t("rebate.rules.added"));
      void qc.invalidateQueries({ queryKey: rebateKeys.all });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t("rebate.rules.add")}
      onOk={() => form.submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
      width={620}
    >
      <Form<RuleForm>
        form={form}
        layout="vertical"
        initialValues={{ tiers: [{ minVolume: 0, rate: 1 }] }}
        onFinish={(v) => void submit(v)}
        data-testid="rebate-rule-form"
      >
        <Form.Item name="purchaserId" label={t("rebate.rules.purchaser")} extra={t("rebate.rules.purchaserHint")}>
          <Select
            allowClear
            showSearch
            optionFilterProp="label"
            placeholder={t("rebate.rules.allPurchasers")}
            options={purchasers}
            data-testid="rebate-purchaser"
          />
        </Form.Item>
        <Form.Item name="goodsId" label={t("rebate.rules.goods")}>
          <Select
            allowClear
            showSearch
            filterOption={false}
            onSearch={setKeyword}
            loading={loadingGoods}
            placeholder={t("rebate.rules.allGoods")}
            options={goodsOptions}
            data-testid="rebate-goods"
          />
        </Form.Item>
        <Form.Item label={t("rebate.rules.tiers")} required extra={t("rebate.rules.tiersHint")}>
          <Form.List name="tiers">
            {(fields, { add, remove }, { errors }) => (
              <Flex vertical gap={4}>
                {fields.map((field, i) => (
                  <Space key={field.key} align="baseline">
                    <Form.Item
                      name={[field.name, "minVolume"]}
                      rules={[{ required: true, message: t("rebate.rules.minVolume") }]}
                      style={{ marginBottom: 8 }}
                    >
                      <InputNumber
                        min={0}
                        max={100_000_000}
                        precision={2}
                        addonBefore={t("rebate.rules.from")}
                        style={{ width: 240 }}
                        data-testid={`tier-volume-${i}`}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, "rate"]}
                      rules={[{ required: true, message: t("rebate.rules.rate") }]}
                      style={{ marginBottom: 8 }}
                    >
                      <InputNumber
                        min={0.01}
                        max={50}
                        step={0.1}
                        precision={2}
                        addonAfter="%"
                        style={{ width: 130 }}
                        data-testid={`tier-rate-${i}`}
                      />
                    </Form.Item>
                    {fields.length > 1 && (
                      <MinusCircleOutlined
                        onClick={() => remove(field.name)}
                        aria-label={t("rebate.rules.removeTier")}
                      />
                    )}
                  </Space>
                ))}
                <Form.ErrorList errors={errors} />
                {fields.length < 10 && (
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    onClick={() => add()}
                    style={{ width: 240 }}
                    data-testid="tier-add"
                  >
                    {t("rebate.rules.addTier")}
                  </Button>
                )}
              </Flex>
            )}
          </Form.List>
        </Form.Item>
        <Space>
          <Form.Item
            name="validFrom"
            label={t("rebate.rules.validFrom")}
            rules={[{ required: true, message: t("rebate.rules.validFrom") }]}
          >
            <DatePicker data-testid="rebate-valid-from" />
          </Form.Item>
          <Form.Item name="validTo" label={t("rebate.rules.validTo")}>
            <DatePicker />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

/**
 * The supplier's rebate rules (a tab of ProcurementLiaison): tiers by the purchaser's monthly volume
 * (orders less refunds), for one purchaser or all, for one goods or all, with validity. Rules of one
 * scope may not overlap; the server says so in the interface language.
 */
export function RebateRules() {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const [adding, setAdding] = useState(false);
  const rules = useQuery({ queryKey: rebateKeys.rules, queryFn: supplierRebateApi.rules });
  const remove = async (id: string) => {
    if ((await supplierRebateApi.removeRule(id))?.ok) void qc.invalidateQueries({ queryKey: rebateKeys.all });
  };
  const columns: TableColumnsType<RebateRule> = [
    {
      title: t("rebate.rules.purchaser"),
      key: "purchaser",
      render: (_: unknown, r) =>
        r.purchaserId ? `${r.purchaserName ?? ""} (${r.purchaserId})` : <Tag>{t("rebate.rules.allPurchasers")}</Tag>,
    },
    {
      title: t("rebate.rules.goods"),
      key: "goods",
      render: (_: unknown, r) =>
        r.goodsId ? `${r.goodsName ?? ""} (${r.goodsId})` : <Tag>{t("rebate.rules.allGoods")}</Tag>,
    },
    {
      title: t("rebate.rules.tiers"),
      dataIndex: "tiers",
      render: (tiers: RebateRule["tiers"]) =>
        tiers
          .map((tier) => t("rebate.rules.tier", { volume: yuan(tier.minVolume), rate: percent(tier.rateBp) }))
          .join("; "),
    },
    {
      title: t("rebate.rules.validity"),
      key: "validity",
      render: (_: unknown, r) => `${r.validFrom} ~ ${r.validTo ?? t("rebate.rules.open")}`,
    },
    {
      title: t("rebate.col.action"),
      key: "action",
      render: (_: unknown, r) => (
        <Popconfirm title={t("rebate.rules.removeConfirm")} onConfirm={() => void remove(r.id)}>
          <Button type="link" size="small" danger data-testid={`rebate-remove-${r.id}`}>
            {t("rebate.rules.remove")}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <Card
      variant="borderless"
      title={t("rebate.rules.title")}
      extra={
        <Space>
          <ExportButton
            columns={columns.slice(0, 4)}
            rows={rules.data ?? []}
            name={t("rebate.rules.title")}
            testId="rebate-rules-export"
          />
          <Button type="primary" onClick={() => setAdding(true)} data-testid="rebate-rule-add">
            {t("rebate.rules.add")}
          </Button>
        </Space>
      }
    >
      <Table<RebateRule>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rules.data ?? []}
        loading={rules.isFetching}
        pagination={false}
        scroll={{ x: "max-content" }}
      />
      {adding && <RuleDialog onClose={() => setAdding(false)} />}
    </Card>
  );
}
