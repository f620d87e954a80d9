import { AudioOutlined, PlayCircleOutlined, VideoCameraAddOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Button, Card, Flex, Modal, Tag, Typography, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { LibraryItem } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { libraryKey, libraryKeyAll, libraryPage, type LibraryQuery } from "./api";
import { UploadDialog } from "./UploadDialog";
import { formatTime } from "../../ui/time";

/** Upload types of the library: 3 video, 7 audio (the dialog adds both to the library when done). */
const VIDEO_TYPE = 3;
const AUDIO_TYPE = 7;

const formatKb = (kb: number) => (kb >= 1024 ? `${(kb / 1024).toFixed(1)} MB` : `${kb} KB`);

/**
 * `/business/VideoLibrary`: the brand owner's video library (spec 01 §3 "video library", §7
 * `videolibrary/pager`): videos and audio uploaded through the upload dialog, newest first, searchable
 * by name and type, played in the page (HTML5 video/audio streaming with Range requests).
 */
export default function VideoLibrary() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<"video" | "audio" | null>(null);
  const [playing, setPlaying] = useState<LibraryItem | null>(null);

  const columns: TableColumnsType<LibraryItem> = [
    {
      title: t("media.col.name"),
      dataIndex: "name",
      render: (v: string) => <Typography.Text strong>{v}</Typography.Text>,
    },
    {
      title: t("media.col.kind"),
      dataIndex: "kind",
      render: (v: LibraryItem["kind"]) => <Tag color={v === "video" ? "blue" : "purple"}>{t(`media.kind.${v}`)}</Tag>,
    },
    { title: t("media.col.size"), dataIndex: "size", render: (v: number) => formatKb(v) },
    { title: t("media.col.filename"), dataIndex: "filename", ellipsis: true },
    {
      title: t("media.col.createdAt"),
      dataIndex: "createdAt",
      render: (v: string) => formatTime(v, { seconds: true }),
    },
    {
      title: t("media.col.actions"),
      key: "actions",
      render: (_: unknown, item) => (
        <Button
          type="link"
          size="small"
          data-testid="library-play"
          icon={<PlayCircleOutlined />}
          onClick={() => setPlaying(item)}
        >
          {t("media.play")}
        </Button>
      ),
    },
  ];

  const header = (
    <Flex vertical gap={16}>
      <PageHint id="business.VideoLibrary" title={t("media.hintTitle")} description={t("media.hint")} />
      <Card variant="borderless">
        <Flex gap={12} wrap>
          <Button type="primary" icon={<VideoCameraAddOutlined />} onClick={() => setDialog("video")}>
            {t("media.uploadVideo")}
          </Button>
          <Button icon={<AudioOutlined />} onClick={() => setDialog("audio")}>
            {t("media.uploadAudio")}
          </Button>
        </Flex>
      </Card>
    </Flex>
  );

  return (
    <>
      <ListPage<LibraryItem>
        header={header}
        rowKey="id"
        columns={columns}
        search={{
          input: { keys: [{ value: "name", label: t("media.name") }] },
          select: {
            keys: [
              {
                value: "type",
                label: t("media.type"),
                options: [VIDEO_TYPE, AUDIO_TYPE].map((v) => ({ value: String(v), label: t(`media.types.${v}`) })),
              },
            ],
          },
        }}
        query={(state) => {
          const query: LibraryQuery = { page: state.page, pagesize: state.pageSize };
          if (state.values.inpKey === "name" && state.values.inpVal) query.name = state.values.inpVal;
          const sel = state.values.selVal;
          if (state.values.selKey === "type" && typeof sel === "string" && sel) query.type_id = Number(sel);
          return { queryKey: libraryKey(query), queryFn: () => libraryPage(query) };
        }}
      />
      <UploadDialog
        open={dialog !== null}
        type={dialog === "audio" ? AUDIO_TYPE : VIDEO_TYPE}
        isAudioType={dialog === "audio"}
        onClose={() => setDialog(null)}
        onUploaded={() => void queryClient.invalidateQueries({ queryKey: libraryKeyAll })}
      />
      <Modal
        open={playing !== null}
        title={playing ? t("media.playTitle", { name: playing.name }) : ""}
        width={760}
        footer={null}
        onCancel={() => setPlaying(null)}
        destroyOnHidden
      >
        {playing &&
          (playing.kind === "video" ? (
            <video
              key={playing.id}
              src={playing.url}
              controls
              autoPlay
              style={{ width: "100%", maxHeight: "70vh", background: "#000" }}
              data-testid="library-player"
            >
              <a href={playing.url}>{t("media.download")}</a>
            </video>
          ) : (
            <audio
              key={playing.id}
              src={playing.url}
              controls
              autoPlay
              style={{ width: "100%" }}
              data-testid="library-player"
            >
              <a href={playing.url}>{t("media.download")}</a>
            </audio>
          ))}
      </Modal>
    </>
  );
}
