import { useQuery, useQueryClient } from "@tanstack/react-query";
import {
  App,
  Button,
  Card,
  DatePicker,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  type TableColumnsType,
} from "antd";
import type { Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { BUSINESS_TYPES, type CommissionRule } from "@tessera/contracts";
import { PageHint } from "../../ui/PageHint";
import { percent, useDictLabels } from "../catalog/labels";
import { commissionApi, commissionKeys } from "./api";
import { OpsOnly } from "../accounts/OpsOnly";

interface RuleForm {
  providerId: string;
  businessType?: string;
  brandId?: string;
  rate: number;
  validFrom: Dayjs;
  validTo?: Dayjs | null;
}
const RULE_FIELDS = ["providerId", "brandId", "validFrom", "validTo"] as const;

function RuleDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const labels = useDictLabels();
  const qc = useQueryClient();
  const [form] = Form.useForm<RuleForm>();
  const [saving, setSaving] = useState(false);
  const submit = async (v: RuleForm) => {
    setSaving(true);
    try {
      const result = await commissionApi.addRule({
        providerId: v.providerId.trim(),
        businessType: v.businessType ?? null,
        brandId: v.brandId?.trim() ? v.brandId.trim() : null,
        rateBp: Math.round(v.rate * 100),
        validFrom: v.validFrom.format("YYYY-MM-DD"),
        validTo: v.validTo ? v.validTo.format("YYYY-MM-DD") : null,
      });
      if (!result) return;
      if (!result.ok) {
        const field = result.data?.field;
        if (field && (RULE_FIELDS as readonly string[]).includes(field)) {
          form.setFields([{ name: field as (typeof RULE_FIELDS)[number], errors: [result.msg] }]);
        } else form.setFields([{ name: "rate", errors: [result.msg] }]);
        return;
      }
      void message.success(t("commission.ops.added"));
      void qc.invalidateQueries({ queryKey: commissionKeys.all });
      onClose();
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      title={t("commission.ops.addRule")}
      onOk={() => form.submit()}
      confirmLoading={saving}
      onCancel={onClose}
      destroyOnHidden
      maskClosable={false}
    >
      <Form<RuleForm> form={form} layout="vertical" onFinish={(v) => void submit(v)}>
        <Form.Item
          name="providerId"
          label={t("commission.ops.providerId")}
          rules={[{ required: true, whitespace: true, message: t("commission.ops.providerId") }]}
        >
          <Input inputMode="numeric" maxLength={18} />
        </Form.Item>
        <Form.Item name="businessType" label={t("commission.ops.businessType")}>
          <Select
            allowClear
            placeholder={t("commission.ops.any")}
            options={BUSINESS_TYPES.map((b) => ({ value: b, label: labels.businessType(b) }))}
          />
        </Form.Item>
        <Form.Item name="brandId" label={t("commission.ops.brandId")}>
          <Input inputMode="numeric" maxLength={18} placeholder={t("commission.ops.any")} />
        </Form.Item>
        <Form.Item
          name="rate"
          label={t("commission.ops.rate")}
          rules={[{ required: true, message: t("commission.ops.rate") }]}
        >
          <InputNumber min={0} max={50} step={0.1} precision={2} addonAfter="%" style={{ width: 160 }} />
        </Form.Item>
        <Space>
          <Form.Item
            name="validFrom"
            label={t("commission.ops.validFrom")}
            rules={[{ required: true, message: t("commission.ops.validFrom") }]}
          >
            <DatePicker />
          </Form.Item>
          <Form.Item name="validTo" label={t("commission.ops.validTo")}>
            <DatePicker />
          </Form.Item>
        </Space>
      </Form>
    </Modal>
  );
}

/**
 * `/ops/Commission`: the service providers' commission rules (a rate by business type and brand, with
 * validity; overlapping rules of one scope are refused) and the monthly close that makes the
 * providers' statements (idempotent: a month closes once).
 */
export default function Commission() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const labels = useDictLabels();
  const qc = useQueryClient();
  const [providerId, setProviderId] = useState<string | undefined>();
  const [adding, setAdding] = useState(false);
  const [period, setPeriod] = useState<Dayjs | null>(null);
  const rules = useQuery({
    queryKey: commissionKeys.rules(providerId),
    queryFn: () => commissionApi.rules(providerId),
  });

  const close = async () => {
    if (!period) return;
    const result = await commissionApi.close(period.format("YYYY-MM"));
    if (!result) return;
    if (!result.ok) {
      void message.error(result.msg);
      return;
    }
    void message.success(
      result.data.alreadyClosed
        ? t("commission.ops.alreadyClosed", { period: result.data.period })
        : t("commission.ops.closed", result.data),
    );
  };
  const remove = async (id: string) => {
    if ((await commissionApi.removeRule(id))?.ok) void qc.invalidateQueries({ queryKey: commissionKeys.all });
  };

  const columns: TableColumnsType<CommissionRule> = [
    {
      title: t("commission.ops.provider"),
      key: "provider",
      render: (_: unknown, r) => `${r.providerName} (${r.providerId})`,
    },
    {
      title: t("commission.ops.businessType"),
      dataIndex: "businessType",
      render: (v: CommissionRule["businessType"]) => (v ? labels.businessType(v) : t("commission.ops.any")),
    },
    {
      title: t("commission.ops.brandId"),
      dataIndex: "brandId",
      render: (v: string | null) => v ?? t("commission.ops.any"),
    },
    { title: t("commission.ops.rate"), dataIndex: "rateBp", align: "right", render: (v: number) => percent(v) },
    {
      title: t("commission.ops.validity"),
      key: "validity",
      render: (_: unknown, r) => `${r.validFrom} ~ ${r.validTo ?? t("commission.ops.open")}`,
    },
    {
      title: t("commission.col.action"),
      key: "action",
      render: (_: unknown, r) => (
        <Popconfirm title={t("commission.ops.removeConfirm")} onConfirm={() => void remove(r.id)}>
          <Button type="link" size="small" danger>
            {t("commission.ops.remove")}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <OpsOnly>
      <Flex vertical gap={16}>
        <PageHint id="ops.Commission" title={t("commission.ops.hintTitle")} description={t("commission.ops.hint")} />
        <Card variant="borderless" title={t("commission.ops.closeTitle")}>
          <Space>
            <DatePicker picker="month" value={period} onChange={setPeriod} />
            <Button type="primary" disabled={!period} onClick={() => void close()}>
              {t("commission.ops.close")}
            </Button>
          </Space>
        </Card>
        <Card
          variant="borderless"
          title={t("commission.ops.rules")}
          extra={
            <Space>
              <Input.Search
                allowClear
                placeholder={t("commission.ops.providerId")}
                onSearch={(v) => setProviderId(/^\d{1,18}$/.test(v.trim()) ? v.trim() : undefined)}
                style={{ width: 220 }}
              />
              <Button type="primary" onClick={() => setAdding(true)}>
                {t("commission.ops.addRule")}
              </Button>
            </Space>
          }
        >
          <Table<CommissionRule>
            rowKey="id"
            columns={columns}
            dataSource={rules.data ?? []}
            loading={rules.isFetching}
            pagination={false}
            scroll={{ x: 900 }}
          />
        </Card>
      </Flex>
      {adding && <RuleDialog onClose={() => setAdding(false)} />}
    </OpsOnly>
  );
}
