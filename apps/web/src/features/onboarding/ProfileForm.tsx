import { UploadOutlined } from "@ant-design/icons";
import {
  App,
  Avatar,
  Button,
  Card,
  Col,
  Descriptions,
  Flex,
  Form,
  Input,
  Row,
  Select,
  Skeleton,
  Tag,
  Typography,
  Upload,
} from "antd";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { INDUSTRIES, profileUpdateReq, type Industry, type ProfileUpdateReq } from "@tessera/contracts";
import { useAuthImage, useProfile, useSetIndustry, useUpdateProfile, useUploadLogo } from "./api";
import { RealNameTag } from "../accounts/RealNameTag";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { PageHint } from "../../ui/PageHint";

const FIELDS = [
  "companyName",
  "legalRepresentative",
  "contactName",
  "contactPhone",
  "contactEmail",
  "address",
] as const;
type FormValues = ProfileUpdateReq & { industry?: Industry };

function Logo({ url, name }: { url: string | null; name: string }) {
  const { data: src } = useAuthImage(url);
  return (
    <Avatar
      shape="square"
      size={96}
      src={src}
      style={{ background: "#e6f0ff", color: "#1f4fd1", fontSize: 36 }}
      data-testid="profile-logo"
    >
      {name.slice(0, 1)}
    </Avatar>
  );
}

/**
 * The company profile (sale/BasicInformation, business/BasicInfo): company name, legal representative,
 * contact, address, industry and logo. Once real-named, the company name is the one on the licence.
 */
export function ProfileForm({ pageId }: { pageId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: profile, isPending } = useProfile();
  const update = useUpdateProfile();
  const setIndustry = useSetIndustry();
  const uploadLogo = useUploadLogo();
  const [form] = Form.useForm<FormValues>();
  const rule = useZodRules(profileUpdateReq);

  useEffect(() => {
    if (!profile) return;
    form.setFieldsValue({
      companyName: profile.companyName,
      legalRepresentative: profile.legalRepresentative ?? "",
      contactName: profile.contactName ?? "",
      contactPhone: profile.contactPhone ?? "",
      contactEmail: profile.contactEmail ?? "",
      address: profile.address ?? "",
      industry: profile.industry ?? undefined,
    });
  }, [profile, form]);

  if (isPending || !profile) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  const verified = profile.realNameState === "verified";

  const save = async (values: FormValues) => {
    const { industry, ...rest } = values;
    const result = await update.mutateAsync(rest);
    if (reportFailure(result, form, FIELDS, (m) => void message.error(m))) return;
    if (industry && industry !== profile.industry) {
      const r = await setIndustry.mutateAsync({ merchantId: profile.merchantId, industry });
      if (!r?.ok) return;
    }
    void message.success(t("onboarding.profile.saved"));
  };

  return (
    <Flex vertical gap={16}>
      <PageHint id={pageId} title={t("onboarding.profile.hintTitle")} description={t("onboarding.profile.hint")} />
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={8}>
          <Card variant="borderless" title={t("onboarding.profile.account")}>
            <Flex vertical align="center" gap={12} style={{ marginBottom: 16 }}>
              <Logo url={profile.logoUrl} name={profile.companyName} />
              <Upload
                accept="image/png,image/jpeg,image/webp,image/gif"
                showUploadList={false}
                customRequest={({ file }) => {
                  void uploadLogo
                    .mutateAsync(file as File)
                    .then((r) => r?.ok && void message.success(t("onboarding.profile.logoSaved")));
                }}
              >
                <Button icon={<UploadOutlined />} loading={uploadLogo.isPending}>
                  {t("onboarding.profile.uploadLogo")}
                </Button>
              </Upload>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t("onboarding.profile.logoRule")}
              </Typography.Text>
            </Flex>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t("onboarding.profile.merchantId")}>
                <Typography.Text copyable>{profile.merchantId}</Typography.Text>
              </Descriptions.Item>
              <Descriptions.Item label={t("onboarding.profile.realName")}>
                <RealNameTag state={profile.realNameState} />
              </Descriptions.Item>
              <Descriptions.Item label={t("onboarding.profile.apiPermission")}>
                <Tag color={profile.apiPermission === "opened" ? "success" : "default"}>
                  {t(`apiPermission.${profile.apiPermission}`)}
                </Tag>
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={16}>
          <Card variant="borderless" title={t("onboarding.profile.title")}>
            <Form
              form={form}
              layout="vertical"
              onFinish={(v) => void save(v)}
              requiredMark={false}
              style={{ maxWidth: 640 }}
            >
              <Form.Item
                name="companyName"
                label={t("onboarding.profile.companyName")}
                rules={[rule("companyName")]}
                extra={verified ? t("onboarding.profile.companyNameLocked") : undefined}
              >
                <Input disabled={verified} maxLength={100} />
              </Form.Item>
              <Row gutter={16}>
                <Col xs={24} md={12}>
                  <Form.Item
                    name="legalRepresentative"
                    label={t("onboarding.profile.legalRepresentative")}
                    rules={[rule("legalRepresentative")]}
                  >
                    <Input maxLength={30} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item name="industry" label={t("onboarding.profile.industry")}>
                    <Select
                      placeholder={t("onboarding.profile.chooseIndustry")}
                      options={INDUSTRIES.map((i) => ({ value: i, label: t(`onboarding.industry.${i}`) }))}
                    />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    name="contactName"
                    label={t("onboarding.profile.contactName")}
                    rules={[rule("contactName")]}
                  >
                    <Input maxLength={30} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={12}>
                  <Form.Item
                    name="contactPhone"
                    label={t("onboarding.profile.contactPhone")}
                    rules={[rule("contactPhone")]}
                  >
                    <Input maxLength={16} />
                  </Form.Item>
                </Col>
              </Row>
              <Form.Item
                name="contactEmail"
                label={t("onboarding.profile.contactEmail")}
                rules={[rule("contactEmail")]}
              >
                <Input maxLength={254} />
              </Form.Item>
              <Form.Item name="address" label={t("onboarding.profile.address")} rules={[rule("address")]}>
                <Input.TextArea rows={2} maxLength={200} showCount />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={update.isPending || setIndustry.isPending}>
                {t("onboarding.save")}
              </Button>
            </Form>
          </Card>
        </Col>
      </Row>
    </Flex>
  );
}
