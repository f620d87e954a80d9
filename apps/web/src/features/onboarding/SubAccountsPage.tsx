import {
  App,
  Button,
  Checkbox,
  Col,
  Form,
  Input,
  Modal,
  Row,
  Space,
  Switch,
  Tag,
  Typography,
  type TableColumnsType,
} from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { subAddReq, type MerchantRole, type SubAccount } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { subAccountsQuery, useAddSubAccount, useUpdateSubAccount } from "./api";
import { useAreas } from "../../ui/areas";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { menuKeyOf } from "./menus";
import { formatTime } from "../../ui/time";

/** The pages of the merchant's areas a sub-account can be given, grouped by area (Home is always open). */
function useMenuGroups() {
  const { t } = useTranslation();
  const { data: info } = useUserInfo();
  const roles: readonly MerchantRole[] = info?.merchant?.roles ?? [];
  const areas = useAreas();
  return areas
    .filter((a) => (a.id === "sale" || a.id === "business") && roles.includes(a.id))
    .map((area) => ({
      area: t(area.nameKey),
      options: area.pages
        .filter((p) => p.menuKey && p.path !== "Home" && p.path !== "SubAccounts")
        .map((p) => ({ value: menuKeyOf(area, p) ?? "", label: t(p.menuKey ?? "") })),
    }));
}

/** A Form.Item control: the chosen page keys. */
function MenuChoice({ value, onChange }: { value?: string[]; onChange?: (v: string[]) => void }) {
  const groups = useMenuGroups();
  return (
    <Checkbox.Group style={{ width: "100%" }} value={value} onChange={(v) => onChange?.(v)}>
      <Row gutter={[8, 8]}>
        {groups.map((g) => (
          <Col span={24} key={g.area}>
            <Typography.Text type="secondary" style={{ display: "block", marginBottom: 4 }}>
              {g.area}
            </Typography.Text>
            <Space wrap>
              {g.options.map((o) => (
                <Checkbox key={o.value} value={o.value} data-testid={`menu-${o.value}`}>
                  {o.label}
                </Checkbox>
              ))}
            </Space>
          </Col>
        ))}
      </Row>
    </Checkbox.Group>
  );
}

type Editing = { mode: "add" } | { mode: "edit"; sub: SubAccount } | null;

function SubDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ email: string; name: string; password: string; menus: string[] }>();
  const add = useAddSubAccount();
  const update = useUpdateSubAccount();
  const rule = useZodRules(subAddReq);
  const isAdd = editing?.mode === "add";

  const submit = async (v: { email: string; name: string; password: string; menus: string[] }) => {
    if (!editing) return;
    const result =
      editing.mode === "add"
        ? await add.mutateAsync({ email: v.email, name: v.name, password: v.password, menus: v.menus })
        : await update.mutateAsync({
            passportId: editing.sub.passportId,
            name: v.name,
            menus: v.menus,
            ...(v.password ? { password: v.password } : {}),
          });
    if (reportFailure(result, form, ["email", "name", "password", "menus"], (m) => void message.error(m))) return;
    void message.success(t("onboarding.sub.saved"));
    onClose();
  };

  return (
    <Modal
      open={editing !== null}
      title={isAdd ? t("onboarding.sub.addTitle") : t("onboarding.sub.editTitle")}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t("onboarding.save")}
      cancelText={t("onboarding.cancel")}
      confirmLoading={add.isPending || update.isPending}
      maskClosable={false}
      destroyOnHidden
      width={640}
      okButtonProps={{ "data-testid": "sub-save" }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        preserve={false}
        initialValues={
          editing?.mode === "edit"
            ? { name: editing.sub.name, menus: editing.sub.menus, email: editing.sub.email }
            : { menus: [] }
        }
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="email" label={t("onboarding.sub.email")} rules={isAdd ? [rule("email")] : []}>
          <Input disabled={!isAdd} autoComplete="off" data-testid="sub-email" />
        </Form.Item>
        <Form.Item name="name" label={t("onboarding.sub.name")} rules={[rule("name")]}>
          <Input maxLength={30} data-testid="sub-name" />
        </Form.Item>
        <Form.Item
          name="password"
          label={isAdd ? t("onboarding.sub.password") : t("onboarding.sub.newPassword")}
          extra={t("msg:validation.passwordRule")}
          rules={isAdd ? [rule("password")] : []}
        >
          <Input.Password autoComplete="new-password" data-testid="sub-password" />
        </Form.Item>
        <Form.Item label={t("onboarding.sub.menus")} rules={[rule("menus")]} name="menus">
          <MenuChoice />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Sub-accounts (brander/passport/sub): the main account adds staff who log in with their own password
 * and see only the pages they were given; it changes their pages, resets their password, disables them.
 */
export function SubAccountsPage({ pageId }: { pageId: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<Editing>(null);
  const update = useUpdateSubAccount();
  const groups = useMenuGroups();
  const labelOf = (key: string) => groups.flatMap((g) => g.options).find((o) => o.value === key)?.label ?? key;

  const columns: TableColumnsType<SubAccount> = [
    { title: t("onboarding.sub.email"), dataIndex: "email" },
    { title: t("onboarding.sub.name"), dataIndex: "name" },
    {
      title: t("onboarding.sub.menus"),
      dataIndex: "menus",
      render: (menus: string[]) => (
        <Space size={[4, 4]} wrap>
          {menus.map((m) => (
            <Tag key={m}>{labelOf(m)}</Tag>
          ))}
        </Space>
      ),
    },
    {
      title: t("onboarding.sub.enabled"),
      dataIndex: "disabled",
      width: 100,
      render: (disabled: boolean, row) => (
        <Switch
          checked={!disabled}
          loading={update.isPending}
          onChange={(on) => void update.mutateAsync({ passportId: row.passportId, disabled: !on })}
        />
      ),
    },
    {
      title: t("onboarding.sub.createdAt"),
      dataIndex: "createdAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("onboarding.actions"),
      width: 100,
      render: (_: unknown, row) => (
        <Button type="link" size="small" onClick={() => setEditing({ mode: "edit", sub: row })}>
          {t("onboarding.edit")}
        </Button>
      ),
    },
  ];

  return (
    <>
      <ListPage<SubAccount>
        header={<PageHint id={pageId} title={t("onboarding.sub.hintTitle")} description={t("onboarding.sub.hint")} />}
        search={{
          add: { label: t("onboarding.sub.add"), onClick: () => setEditing({ mode: "add" }) },
          input: { keys: [{ value: "keyword", label: t("onboarding.sub.keyword") }] },
        }}
        columns={columns}
        rowKey="passportId"
        query={(state) =>
          subAccountsQuery({ page: state.page, pageSize: state.pageSize, keyword: state.values.inpVal })
        }
      />
      <SubDialog editing={editing} onClose={() => setEditing(null)} />
    </>
  );
}
