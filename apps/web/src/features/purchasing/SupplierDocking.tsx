import { App, Button, Card, Flex, Form, Input } from "antd";
import { useTranslation } from "react-i18next";
import { dockingApplyReq } from "@tessera/contracts";
import { useApplyDocking } from "../docking/api";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { RequiredStatesNotice } from "../onboarding/RequiredStatesNotice";
import { PageHint } from "../../ui/PageHint";
import { DockingList } from "./DockingList";

/** `/sale/SupplierDocking`: apply to dock with a supplier by its ID, sign, follow the records. */
export default function SupplierDocking() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ supplierId: string }>();
  const rule = useZodRules(dockingApplyReq);
  const apply = useApplyDocking();
  const submit = async ({ supplierId }: { supplierId: string }) => {
    const result = await apply.mutateAsync(supplierId.trim());
    if (reportFailure(result, form, ["supplierId"], (m) => void message.error(m))) return;
    void message.success(t("docking.applied"));
    form.resetFields();
  };
  const header = (
    <Flex vertical gap={16}>
      <PageHint id="sale.SupplierDocking" title={t("docking.hint.saleTitle")} description={t("docking.hint.sale")} />
      <RequiredStatesNotice market />
      <Card variant="borderless" title={t("docking.applyTitle")}>
        <Form form={form} layout="inline" onFinish={(v) => void submit(v)} requiredMark={false}>
          <Form.Item name="supplierId" label={t("docking.supplierId")} rules={[rule("supplierId")]}>
            <Input inputMode="numeric" maxLength={18} style={{ width: 220 }} data-testid="supplier-id" />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={apply.isPending} data-testid="apply-docking">
            {t("docking.apply")}
          </Button>
        </Form>
      </Card>
    </Flex>
  );
  return <DockingList side="purchaser" header={header} />;
}
