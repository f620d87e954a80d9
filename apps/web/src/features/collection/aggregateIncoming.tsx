import { UploadOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Card, Col, Flex, Form, Input, Row, Select, Space, Steps, Typography, Upload } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ApplyRecord, ApplyState } from "@tessera/contracts";
import { reportFailure } from "../../ui/form/serverError";
import { AuthImage } from "../onboarding/AuthImage";
import { PageHint } from "../../ui/PageHint";
import { collectionApi, collectionKeys, type ApplyBody } from "./api";

// The images are not inputs of their own: their messages show as a toast.
const FIELDS = [
  "companyName",
  "creditCode",
  "legalPerson",
  "legalIdNo",
  "contactName",
  "contactPhone",
  "industryCode",
  "bankName",
  "bankAccount",
  "bankAccountName",
] as const;
/** The application's images: the licence and the legal person's ID card, both sides (applyment4sub's id_card_copy, id_card_national). */
const IMAGES = [
  {
    field: "licenceImage",
    url: "licenceUrl",
    label: "collection.licence",
    button: "collection.uploadLicence",
    testId: "apply-licence",
  },
  {
    field: "idCardFront",
    url: "idCardFrontUrl",
    label: "collection.idCardFront",
    button: "collection.uploadIdCardFront",
    testId: "apply-id-front",
  },
  {
    field: "idCardBack",
    url: "idCardBackUrl",
    label: "collection.idCardBack",
    button: "collection.uploadIdCardBack",
    testId: "apply-id-back",
  },
] as const;
type ImageField = (typeof IMAGES)[number]["field"];
const STEP: Record<ApplyState, number> = {
  EDITTING: 0,
  REJECTED: 1,
  AUDITING: 1,
  TO_BE_CONFIRMED: 2,
  TO_BE_SIGNED: 3,
  SIGNING: 3,
  FINISHED: 4,
  CANCELED: 0,
};

/**
 * `/business/aggregateIncoming`: aggregated onboarding (聚合进件) for payment collection. The merchant
 * fills the application (company, legal person, settlement account, industry, licence and the legal
 * person's ID card), submits it; the
 * aggregator reviews (rejected: fix and resubmit), the merchant confirms, signs through the link, and the
 * aggregator finishes; then collection codes can be made (receiptB).
 */
export default function AggregateIncoming() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<ApplyBody>();
  const [busy, setBusy] = useState(false);
  const records = useQuery({
    queryKey: collectionKeys.records,
    queryFn: () => collectionApi.records(),
    refetchInterval: (q) =>
      q.state.data?.list[0]?.state === "SIGNING" || q.state.data?.list[0]?.state === "AUDITING" ? 3000 : false,
  });
  const industries = useQuery({ queryKey: ["collection", "industries"], queryFn: () => collectionApi.industries() });
  const rec: ApplyRecord | undefined = records.data?.list[0];
  const editable = !rec || rec.state === "EDITTING" || rec.state === "REJECTED";
  // Where each uploaded image is shown from: this upload's reply, else the saved application's.
  const [uploaded, setUploaded] = useState<Partial<Record<ImageField, string>>>({});
  const imageKeys = {
    licenceImage: Form.useWatch("licenceImage", form),
    idCardFront: Form.useWatch("idCardFront", form),
    idCardBack: Form.useWatch("idCardBack", form),
  };
  useEffect(() => {
    if (rec && editable) form.setFieldsValue({ ...rec });
  }, [rec, editable, form]);
  const refresh = () => void qc.invalidateQueries({ queryKey: collectionKeys.all });

  const save = async (submit: boolean) => {
    setBusy(true);
    try {
      const image = (field: ImageField) => {
        const v: unknown = form.getFieldValue(field);
        return typeof v === "string" ? v : "";
      };
      const r = await collectionApi.save({
        ...form.getFieldsValue(),
        licenceImage: image("licenceImage"),
        idCardFront: image("idCardFront"),
        idCardBack: image("idCardBack"),
      });
      if (reportFailure(r, form, FIELDS, (msg) => void message.error(msg)) || !r?.ok) return;
      if (submit) {
        const s = await collectionApi.submit();
        if (reportFailure(s, form, FIELDS, (msg) => void message.error(msg)) || !s?.ok) return;
        void message.success(t("collection.submitted"));
      } else void message.success(t("collection.saved"));
      refresh();
    } finally {
      setBusy(false);
    }
  };
  const confirm = async () => {
    const r = await collectionApi.confirm();
    if (r?.ok) refresh();
  };
  const upload = async (field: ImageField, file: File) => {
    const r = await collectionApi.uploadLicence(file);
    if (r?.ok) {
      form.setFieldValue(field, r.data.key);
      form.setFields([{ name: field, errors: [] }]);
      setUploaded((u) => ({ ...u, [field]: r.data.url }));
    }
  };

  return (
    <Flex vertical gap={16}>
      <PageHint
        id="business.aggregateIncoming"
        title={t("collection.title.apply")}
        description={t("collection.hint.apply")}
      />
      <Card>
        <Steps
          current={STEP[rec?.state ?? "EDITTING"]}
          status={rec?.state === "REJECTED" ? "error" : undefined}
          items={[
            t("collection.step.fill"),
            t("collection.step.review"),
            t("collection.step.confirm"),
            t("collection.step.sign"),
            t("collection.step.done"),
          ].map((title) => ({ title }))}
        />
        {rec && (
          <Typography.Paragraph style={{ marginTop: 16 }} data-testid="apply-state">
            {t("collection.businessCode")}: {rec.businessCode} · {t(`collection.state.${rec.state}`)}
          </Typography.Paragraph>
        )}
        {rec?.state === "REJECTED" && (
          <Alert
            type="error"
            showIcon
            title={t("collection.rejected")}
            description={rec.rejectReason}
            data-testid="apply-rejected"
          />
        )}
        {rec?.state === "TO_BE_CONFIRMED" && (
          <Button type="primary" onClick={() => void confirm()} data-testid="apply-confirm">
            {t("collection.confirm")}
          </Button>
        )}
        {rec?.state === "TO_BE_SIGNED" && rec.signUrl && (
          <Alert
            type="info"
            showIcon
            title={t("collection.signNow")}
            description={
              <a href={rec.signUrl} target="_blank" rel="noreferrer" data-testid="apply-sign-link">
                {window.location.origin + rec.signUrl}
              </a>
            }
          />
        )}
        {rec?.state === "FINISHED" && (
          <Alert
            type="success"
            showIcon
            title={t("collection.finished", { id: rec.subMchid ?? "" })}
            data-testid="apply-finished"
          />
        )}
      </Card>
      {editable && (
        <Card title={t("collection.form")}>
          <Form form={form} layout="vertical" disabled={busy}>
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="companyName" label={t("collection.companyName")}>
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="creditCode" label={t("collection.creditCode")}>
                  <Input maxLength={18} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="legalPerson" label={t("collection.legalPerson")}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="legalIdNo" label={t("collection.legalIdNo")}>
                  <Input maxLength={18} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="contactName" label={t("collection.contactName")}>
                  <Input maxLength={30} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="contactPhone" label={t("collection.contactPhone")}>
                  <Input maxLength={11} inputMode="numeric" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="industryCode" label={t("collection.industry")}>
                  <Select
                    options={(industries.data ?? []).map((i) => ({
                      value: i.code,
                      label: `${i.name} (${(i.feeBps / 100).toFixed(2)}%)`,
                    }))}
                    aria-label={t("collection.industry")}
                  />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="bankName" label={t("collection.bankName")}>
                  <Input maxLength={60} />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="bankAccount" label={t("collection.bankAccount")}>
                  <Input maxLength={30} inputMode="numeric" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="bankAccountName" label={t("collection.bankAccountName")}>
                  <Input maxLength={100} />
                </Form.Item>
              </Col>
              {IMAGES.map((img) => {
                const key = imageKeys[img.field];
                const url = uploaded[img.field] ?? (rec && rec[img.field] === key ? rec[img.url] : null);
                return (
                  <Col xs={24} md={8} key={img.field}>
                    <Form.Item name={img.field} hidden>
                      <Input />
                    </Form.Item>
                    <Form.Item label={t(img.label)}>
                      <Flex vertical gap={8} align="start">
                        {key && url && <AuthImage path={url} alt={t(img.label)} />}
                        <Space>
                          <Upload
                            accept=".png,.jpg,.jpeg"
                            showUploadList={false}
                            beforeUpload={(file) => {
                              void upload(img.field, file);
                              return false;
                            }}
                          >
                            <Button icon={<UploadOutlined />} data-testid={`${img.testId}-upload`}>
                              {t(img.button)}
                            </Button>
                          </Upload>
                          {key && (
                            <Typography.Text type="success" data-testid={`${img.testId}-done`}>
                              {t("collection.uploaded")}
                            </Typography.Text>
                          )}
                        </Space>
                      </Flex>
                    </Form.Item>
                  </Col>
                );
              })}
            </Row>
            <Space>
              <Button onClick={() => void save(false)}>{t("collection.saveDraft")}</Button>
              <Button type="primary" onClick={() => void save(true)} data-testid="apply-submit">
                {t("collection.submit")}
              </Button>
            </Space>
          </Form>
        </Card>
      )}
    </Flex>
  );
}
