import { UploadOutlined } from "@ant-design/icons";
import { App, Button, Card, Flex, Table, Tag, Typography, Upload, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { CommitLetter } from "@tessera/contracts";
import { http } from "../../api/http";
import { useCommitLetters, useUploadCommitLetter } from "./api";
import { PageHint } from "../../ui/PageHint";
import { formatTime } from "../../ui/time";

/**
 * `/sale/commitLetter`: the purchaser's commitment letter (承诺函), a signed undertaking uploaded as a PDF
 * or a photo. Every upload is kept as a version; the newest is the one in force.
 */
export default function CommitLetterPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data, isPending } = useCommitLetters();
  const upload = useUploadCommitLetter();

  const open = async (row: CommitLetter) => {
    const r = await http.download(row.url, { fileName: row.fileName });
    if (r?.ok) window.open(URL.createObjectURL(r.data.blob), "_blank", "noopener");
  };

  const columns: TableColumnsType<CommitLetter> = [
    {
      title: t("onboarding.letter.version"),
      dataIndex: "version",
      width: 110,
      render: (v: number, _r, i) => (
        <Flex gap={6} align="center">
          v{v}
          {i === 0 && <Tag color="success">{t("onboarding.letter.current")}</Tag>}
        </Flex>
      ),
    },
    { title: t("onboarding.letter.file"), dataIndex: "fileName" },
    { title: t("onboarding.letter.uploadedBy"), dataIndex: "uploadedBy" },
    {
      title: t("onboarding.letter.uploadedAt"),
      dataIndex: "uploadedAt",
      width: 170,
      render: (v: string) => formatTime(v),
    },
    {
      title: t("onboarding.actions"),
      width: 100,
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => void open(r)}>
          {t("onboarding.letter.view")}
        </Button>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <PageHint
        id="sale.commitLetter"
        title={t("onboarding.letter.hintTitle")}
        description={t("onboarding.letter.hint")}
      />
      <Card
        variant="borderless"
        title={t("onboarding.letter.title")}
        extra={
          <Upload
            accept="application/pdf,image/png,image/jpeg,image/webp"
            showUploadList={false}
            customRequest={({ file }) => {
              void upload
                .mutateAsync(file as File)
                .then((r) => r?.ok && void message.success(t("onboarding.letter.uploaded")));
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={upload.isPending}>
              {t("onboarding.letter.upload")}
            </Button>
          </Upload>
        }
      >
        <Typography.Paragraph type="secondary">{t("onboarding.letter.rule")}</Typography.Paragraph>
        <Table<CommitLetter>
          rowKey="id"
          columns={columns}
          dataSource={data ?? []}
          loading={isPending}
          pagination={false}
        />
      </Card>
    </Flex>
  );
}
