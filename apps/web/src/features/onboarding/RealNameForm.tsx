import {
  App,
  Alert,
  Button,
  Card,
  Col,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Input,
  Row,
  Skeleton,
  Space,
  Tag,
  Typography,
} from "antd";
import dayjs, { type Dayjs } from "dayjs";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import {
  isIdentityDocumentNumber,
  isLang,
  isNationalId,
  realNameSubmitReq,
  type DocumentKind,
  type RealNameApplication,
} from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { readIdText, readLicenseText, useRealNameInfo, useSubmitRealName, useUploadDocument } from "./api";
import { regionOptions } from "../../ui/regions";
import { RealNameTag } from "../accounts/RealNameTag";
import { reportFailure } from "../../ui/form/serverError";
import { useZodRules } from "../../ui/form/useZodRules";
import { PageHint } from "../../ui/PageHint";
import { AgreementsCard } from "./AgreementsCard";
import { AuthImage } from "./AuthImage";
import { DocumentUpload, type UploadedDoc } from "./DocumentUpload";
import { formatTime } from "../../ui/time";

interface FieldValues {
  companyName: string;
  licenseNumber: string;
  licenseValidUntil: Dayjs | null;
  legalName: string;
  legalIdNumber: string;
  idValidUntil: Dayjs | null;
}
const FIELDS = [
  "companyName",
  "licenseNumber",
  "licenseValidUntil",
  "legalName",
  "legalIdNumber",
  "idValidUntil",
] as const;
const DATE = "YYYY-MM-DD";
const STATE_COLOR = { pending: "processing", approved: "success", rejected: "error" } as const;

/** The labels that differ for an international organisation (Hong Kong, Singapore, Europe, the Americas). */
const INTL_LABEL: Partial<Record<string, string>> = {
  licenseNumber: "onboarding.realName.licenseNumberIntl",
  legalName: "onboarding.realName.legalNameIntl",
  legalIdNumber: "onboarding.realName.legalIdNumberIntl",
};
const INTL_DOC: Record<DocumentKind, string> = {
  license: "onboarding.realName.licenseIntl",
  id_front: "onboarding.realName.idFrontIntl",
  id_back: "onboarding.realName.idBackIntl",
};

function Submitted({ app, intl }: { app: RealNameApplication; intl: boolean }) {
  const { t } = useTranslation();
  const longTerm = t("onboarding.realName.longTerm");
  const label = (field: string) => t((intl && INTL_LABEL[field]) || `onboarding.realName.${field}`);
  return (
    <Card
      variant="borderless"
      title={t("onboarding.realName.submitted")}
      extra={<Tag color={STATE_COLOR[app.state]}>{t(`onboarding.review.${app.state}`)}</Tag>}
    >
      <Descriptions column={{ xs: 1, md: 2 }} size="small">
        <Descriptions.Item label={t("onboarding.realName.companyName")}>{app.companyName}</Descriptions.Item>
        <Descriptions.Item label={label("licenseNumber")}>{app.licenseNumber}</Descriptions.Item>
        <Descriptions.Item label={t("onboarding.realName.licenseValidUntil")}>
          {app.licenseValidUntil ?? longTerm}
        </Descriptions.Item>
        <Descriptions.Item label={label("legalName")}>{app.legalName}</Descriptions.Item>
        <Descriptions.Item label={label("legalIdNumber")}>{app.legalIdNumber}</Descriptions.Item>
        <Descriptions.Item label={t("onboarding.realName.idValidUntil")}>
          {app.idValidUntil ?? longTerm}
        </Descriptions.Item>
        <Descriptions.Item label={t("onboarding.realName.submittedAt")}>
          {formatTime(app.submittedAt)}
        </Descriptions.Item>
      </Descriptions>
      <Space wrap style={{ marginTop: 12 }}>
        <AuthImage path={app.documents.license} alt={t("onboarding.realName.doc.license")} />
        <AuthImage path={app.documents.idFront} alt={t("onboarding.realName.doc.id_front")} />
        <AuthImage path={app.documents.idBack} alt={t("onboarding.realName.doc.id_back")} />
      </Space>
    </Card>
  );
}

/**
 * Real-name verification (sale/Authentication, business/AuthenticationB): upload the business licence
 * and both sides of the legal representative's ID, let the OCR adapter read them (the local adapter
 * reads only a text layer and otherwise leaves the fields empty), confirm the fields, submit; an
 * operator reviews. Shows the state, the application under review, or the rejection reason.
 */
export function RealNameForm({ pageId, brandContext = false }: { pageId: string; brandContext?: boolean }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const { data: info, isPending } = useRealNameInfo();
  const { data: user } = useUserInfo();
  // An international organisation verifies with its registration and a passport or identity card.
  const intl = !brandContext && user?.merchant?.version === "international";
  const country =
    intl && user?.merchant?.country
      ? (regionOptions(isLang(i18n.language) ? i18n.language : "tw").find((r) => r.value === user.merchant?.country)
          ?.label ?? user.merchant.country)
      : null;
  const label = (field: string) => t((intl && INTL_LABEL[field]) || `onboarding.realName.${field}`);
  // The server holds a domestic organisation to a mainland national ID (the edge takes either).
  const idNumberOk = (v: string) => (intl ? isIdentityDocumentNumber(v) : isNationalId(v));
  const upload = useUploadDocument();
  const submit = useSubmitRealName();
  const [form] = Form.useForm<FieldValues>();
  const rule = useZodRules(realNameSubmitReq);
  const [docs, setDocs] = useState<Partial<Record<DocumentKind, UploadedDoc>>>({});
  const [busy, setBusy] = useState<DocumentKind | null>(null);
  const [ocrNote, setOcrNote] = useState<"read" | "none" | null>(null);
  const [editing, setEditing] = useState(false);

  if (isPending || !info) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  const latest = info.latest;
  const pending = latest?.state === "pending";
  const showForm = !pending && (editing || info.state !== "verified");

  const onFile = async (kind: DocumentKind, file: File) => {
    setBusy(kind);
    try {
      const r = await upload.mutateAsync({ kind, file });
      if (!r?.ok) return;
      setDocs((d) => ({
        ...d,
        [kind]: { documentId: r.data.documentId, url: `/api/card-user/realNameAuths/images/${r.data.documentId}` },
      }));
      // Fill only the fields the reader actually found, and only where the user has typed nothing.
      const fill = (values: Partial<Record<keyof FieldValues, string | undefined>>) => {
        let any = false;
        for (const [k, v] of Object.entries(values)) {
          if (!v) continue;
          any = true;
          const key = k as keyof FieldValues;
          if (form.getFieldValue(key)) continue;
          form.setFieldValue(
            key,
            key.endsWith("ValidUntil") ? (dayjs(v, DATE, true).isValid() ? dayjs(v, DATE) : null) : v,
          );
        }
        setOcrNote(any ? "read" : "none");
      };
      if (kind === "license") {
        const text = await readLicenseText(r.data.documentId);
        if (text?.ok) {
          fill({
            companyName: text.data.fields.companyName,
            licenseNumber: text.data.fields.licenseNumber,
            legalName: text.data.fields.legalName,
            licenseValidUntil: text.data.fields.validUntil,
          });
        }
      } else {
        const text = await readIdText(r.data.documentId);
        if (text?.ok) {
          fill({
            legalName: text.data.fields.name,
            legalIdNumber: text.data.fields.idNumber,
            idValidUntil: text.data.fields.validUntil,
          });
        }
      }
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = async (values: FieldValues) => {
    const license = docs.license;
    const idFront = docs.id_front;
    const idBack = docs.id_back;
    if (!license || !idFront || !idBack) {
      void message.error(t("msg:realName.documentMissing"));
      return;
    }
    const result = await submit.mutateAsync({
      licenseDocumentId: license.documentId,
      idFrontDocumentId: idFront.documentId,
      idBackDocumentId: idBack.documentId,
      companyName: values.companyName,
      licenseNumber: values.licenseNumber,
      licenseValidUntil: values.licenseValidUntil ? values.licenseValidUntil.format(DATE) : "",
      legalName: values.legalName,
      legalIdNumber: values.legalIdNumber,
      idValidUntil: values.idValidUntil ? values.idValidUntil.format(DATE) : "",
    });
    if (reportFailure(result, form, FIELDS, (m) => void message.error(m))) return;
    void message.success(t("onboarding.realName.submittedToast"));
    setEditing(false);
    setDocs({});
    form.resetFields();
  };

  // Dates are checked by the server against today; the form only needs the other fields' rules.
  const fieldRule = (name: (typeof FIELDS)[number]) => (name.endsWith("ValidUntil") ? {} : rule(name));
  const disabledPast = (d: Dayjs) => !d.isAfter(dayjs(), "day");

  return (
    <Flex vertical gap={16}>
      <PageHint
        id={pageId}
        title={t("onboarding.realName.hintTitle")}
        description={t(intl ? "onboarding.realName.intlHint" : "onboarding.realName.hint")}
      />
      <Card variant="borderless">
        <Flex justify="space-between" align="center" wrap gap={12}>
          <Space size={12}>
            <Typography.Text strong>{t("onboarding.realName.state")}</Typography.Text>
            <span data-testid="realname-state">
              <RealNameTag state={info.state} />
            </span>
            {info.expiresOn && (
              <Typography.Text type="secondary">
                {t("onboarding.realName.expiresOn", { date: info.expiresOn })}
              </Typography.Text>
            )}
            {country && (
              <Typography.Text
                type="secondary"
                data-testid="realname-country"
              >{`${t("onboarding.realName.intlCountry")}: ${country}`}</Typography.Text>
            )}
          </Space>
          {info.state === "verified" && !pending && !editing && (
            <Button onClick={() => setEditing(true)}>{t("onboarding.realName.renew")}</Button>
          )}
        </Flex>
        {info.state === "expired" && (
          <Alert style={{ marginTop: 12 }} type="error" showIcon title={t("msg:realName.expiredNotice")} />
        )}
        {pending && (
          <Alert style={{ marginTop: 12 }} type="info" showIcon title={t("onboarding.realName.pendingNotice")} />
        )}
        {latest?.state === "rejected" && (
          <Alert
            style={{ marginTop: 12 }}
            type="warning"
            showIcon
            title={t("onboarding.realName.rejectedNotice")}
            description={latest.rejectReason}
            data-testid="reject-reason"
          />
        )}
      </Card>
      {latest && (pending || !showForm) && <Submitted app={latest} intl={intl} />}
      {showForm && (
        <Card variant="borderless" title={t("onboarding.realName.formTitle")}>
          <Typography.Paragraph type="secondary">{t("onboarding.realName.step1")}</Typography.Paragraph>
          <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
            {(["license", "id_front", "id_back"] as const).map((kind) => (
              <Col xs={24} md={8} key={kind}>
                <DocumentUpload
                  kind={kind}
                  doc={docs[kind] ?? null}
                  busy={busy === kind}
                  onFile={(f) => void onFile(kind, f)}
                  title={intl ? t(INTL_DOC[kind]) : undefined}
                />
              </Col>
            ))}
          </Row>
          {ocrNote && (
            <Alert
              style={{ marginBottom: 16 }}
              type={ocrNote === "read" ? "success" : "info"}
              showIcon
              title={ocrNote === "read" ? t("onboarding.realName.ocrRead") : t("onboarding.realName.ocrNone")}
              data-testid="ocr-note"
            />
          )}
          <Typography.Paragraph type="secondary">{t("onboarding.realName.step2")}</Typography.Paragraph>
          <Form
            form={form}
            layout="vertical"
            requiredMark={false}
            onFinish={(v) => void onSubmit(v)}
            style={{ maxWidth: 760 }}
          >
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item
                  name="companyName"
                  label={t("onboarding.realName.companyName")}
                  rules={[fieldRule("companyName")]}
                >
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="licenseNumber" label={label("licenseNumber")} rules={[fieldRule("licenseNumber")]}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="legalName" label={label("legalName")} rules={[fieldRule("legalName")]}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="legalIdNumber"
                  label={label("legalIdNumber")}
                  rules={[
                    {
                      validator: (_r, v: unknown) =>
                        typeof v === "string" && idNumberOk(v.trim())
                          ? Promise.resolve()
                          : Promise.reject(
                              new Error(t(intl ? "msg:realName.intlIdNumberInvalid" : "msg:realName.idNumberInvalid")),
                            ),
                    },
                  ]}
                >
                  <Input maxLength={intl ? 24 : 18} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="licenseValidUntil"
                  label={t("onboarding.realName.licenseValidUntil")}
                  extra={t("onboarding.realName.longTermHint")}
                >
                  <DatePicker
                    style={{ width: "100%" }}
                    disabledDate={disabledPast}
                    placeholder={t("onboarding.realName.longTerm")}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item
                  name="idValidUntil"
                  label={t("onboarding.realName.idValidUntil")}
                  extra={t("onboarding.realName.longTermHint")}
                >
                  <DatePicker
                    style={{ width: "100%" }}
                    disabledDate={disabledPast}
                    placeholder={t("onboarding.realName.longTerm")}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Space>
              <Button type="primary" htmlType="submit" loading={submit.isPending} data-testid="realname-submit">
                {t("onboarding.realName.submit")}
              </Button>
              {editing && <Button onClick={() => setEditing(false)}>{t("onboarding.cancel")}</Button>}
            </Space>
          </Form>
        </Card>
      )}
      {/* A provider acting inside a brand verifies it; the brand signs its agreements itself. */}
      {!brandContext && <AgreementsCard />}
    </Flex>
  );
}
