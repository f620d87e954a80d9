import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Card, Flex, Form, Input, Select } from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { MALL_MAX_TESTERS, type MallSettings } from "@tessera/contracts";
import { mallApi, mallKeys } from "./api";

/**
 * `/sale/BrandShow` (and `/business/PrivateCodeMall`): the brand's showcase on the mall's home (title,
 * introduction, picture) and the private code: with one, the mall opens only to who enters it.
 */
export default function BrandShow() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<MallSettings>();
  const settings = useQuery({ queryKey: mallKeys.list("settings", {}), queryFn: () => mallApi.settings() });
  useEffect(() => {
    if (settings.data) form.setFieldsValue(settings.data);
  }, [settings.data, form]);
  const save = async (v: MallSettings) => {
    const r = await mallApi.saveSettings({
      ...v,
      privateCode: v.privateCode?.trim() ? v.privateCode.trim() : null,
      brandTitle: v.brandTitle ?? "",
      brandIntro: v.brandIntro ?? "",
      brandImage: v.brandImage ?? "",
    });
    if (r?.ok) {
      void message.success(t("mall.bo.saved"));
      void qc.invalidateQueries({ queryKey: mallKeys.all });
    }
  };
  return (
    <Flex vertical gap={16}>
      <Card style={{ maxWidth: 720 }}>
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <Form.Item name="brandTitle" label={t("mall.bo.brandTitle")}>
            <Input maxLength={60} />
          </Form.Item>
          <Form.Item name="brandIntro" label={t("mall.bo.brandIntro")}>
            <Input.TextArea rows={4} maxLength={2000} />
          </Form.Item>
          <Form.Item name="brandImage" label={t("mall.bo.brandImage")}>
            <Input maxLength={500} placeholder="https://" />
          </Form.Item>
          <Form.Item name="privateCode" label={t("mall.privateCode")} extra={t("mall.bo.privateHint")}>
            <Input maxLength={16} />
          </Form.Item>
          <Button type="primary" htmlType="submit">
            {t("mall.bo.save")}
          </Button>
        </Form>
      </Card>
      <Testers />
    </Flex>
  );
}

const MOBILE = /^1[3-9]\d{9}$/;

/** The customers (by phone) who may open the mall's experience version before it is released. */
function Testers() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ phones: string[] }>();
  const testers = useQuery({ queryKey: mallKeys.list("testers", {}), queryFn: () => mallApi.testers() });
  useEffect(() => {
    if (testers.data) form.setFieldsValue({ phones: testers.data.phones });
  }, [testers.data, form]);
  const save = async ({ phones }: { phones: string[] }) => {
    const r = await mallApi.saveTesters({ phones: phones.map((p) => p.trim()) });
    if (r?.ok) {
      void message.success(t("mall.bo.saved"));
      void qc.invalidateQueries({ queryKey: mallKeys.list("testers", {}) });
    }
  };
  return (
    <Card style={{ maxWidth: 720 }} title={t("mall.bo.testers")} data-testid="mall-testers">
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item
          name="phones"
          extra={t("mall.bo.testersHint")}
          rules={[
            {
              validator: (_, v: string[] | undefined) =>
                (v ?? []).every((p) => MOBILE.test(p.trim()))
                  ? Promise.resolve()
                  : Promise.reject(new Error(t("mall.bo.testersPhone"))),
            },
          ]}
        >
          <Select
            mode="tags"
            open={false}
            maxCount={MALL_MAX_TESTERS}
            tokenSeparators={[",", " ", "，"]}
            placeholder={t("mall.bo.testersPlaceholder")}
            aria-label={t("mall.bo.testers")}
          />
        </Form.Item>
        <Button htmlType="submit">{t("mall.bo.testersSave")}</Button>
      </Form>
    </Card>
  );
}
