import { FolderAddOutlined, PauseOutlined, PlayCircleOutlined, UploadOutlined } from "@ant-design/icons";
import { App, Button, Flex, Modal, Progress, Typography } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  AUDIO_EXTENSIONS,
  LIBRARY_ADD_DELAY_MS,
  LIBRARY_UPLOAD_TYPES,
  VIDEO_EXTENSIONS,
  checkMediaFile,
  sizeInKb,
  type LibraryItem,
  type VideoInfo,
} from "@tessera/contracts";
import { addToLibrary, libraryPage, TUS_ENDPOINT, uploaderScope, uploadHeaders, videoInfo } from "./api";
import { TusStop, TusUpload } from "../../ui/upload/tusClient";

export interface UploadDialogProps {
  open: boolean;
  /** What the upload is for (a course or commodity id); sent with the upload request. */
  id?: string;
  /** The upload type; 3 and 7 add the finished video to the video library. */
  type: number;
  /** An audio dialog: accepts the audio extensions instead of the video ones. */
  isAudioType?: boolean;
  onClose: () => void;
  /**
   * After a successful upload: the video, and for types 3 and 7 (0.5 s later, once it is in the
   * library) the newest library item.
   */
  onUploaded?: (result: { video: VideoInfo; libraryItem: LibraryItem | null }) => void;
}

type Phase = "idle" | "rejected" | "uploading" | "paused" | "failed" | "done";

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;

/**
 * The upload dialog of spec 03 §2, §4, §5: 'upload video', 700 px wide, not closed by clicking
 * outside; a circular progress, add file / start / pause / resume and a status line. A file is checked
 * (extension list, at least 1 KB, at most 2 GB) and, when accepted, uploads at once over tus in 1 MiB
 * parts; pause and resume (also after a reload: the upload's address is stored by file fingerprint)
 * continue where the server stopped. Closing before 100% asks first.
 */
export function UploadDialog({ open, id, type, isAudioType = false, onClose, onUploaded }: UploadDialogProps) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const inputRef = useRef<HTMLInputElement>(null);
  const uploadRef = useRef<TusUpload | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [percent, setPercent] = useState(0);
  const [status, setStatus] = useState<string>(() => t("msg:media.chooseFile"));

  // Whatever is in flight stops when the dialog closes or goes away (its address stays stored to resume).
  useEffect(() => {
    if (!open) return;
    return () => {
      uploadRef.current?.pause();
      uploadRef.current = null;
    };
  }, [open]);

  /** Back to the empty dialog, for the next time it opens. */
  const dismiss = () => {
    uploadRef.current?.pause();
    uploadRef.current = null;
    setFile(null);
    setPhase("idle");
    setPercent(0);
    setStatus(t("msg:media.chooseFile"));
    onClose();
  };

  const accept = (isAudioType ? AUDIO_EXTENSIONS : VIDEO_EXTENSIONS).map((e) => `.${e}`).join(",");

  const finish = async (upload: TusUpload, videoId: string) => {
    setPercent(100);
    setPhase("done");
    setStatus(t("msg:media.uploadSucceeded"));
    const video = await videoInfo(videoId);
    if (uploadRef.current === upload) uploadRef.current = null;
    void message.success(t("msg:media.uploadSucceeded"));
    dismiss();
    if ((LIBRARY_UPLOAD_TYPES as readonly number[]).includes(type)) {
      setTimeout(() => {
        void (async () => {
          await addToLibrary(type, [{ name: video.name, size: video.size, videoid: video.videoid }]);
          const newest = await libraryPage({ page: 1, pagesize: 20, type_id: type });
          onUploaded?.({ video, libraryItem: newest.list[0] ?? null });
        })();
      }, LIBRARY_ADD_DELAY_MS);
    } else {
      onUploaded?.({ video, libraryItem: null });
    }
  };

  const run = async (upload: TusUpload) => {
    setPhase("uploading");
    setStatus(t("media.dialog.uploading"));
    try {
      const { videoId } = await upload.start();
      await finish(upload, videoId);
    } catch (err) {
      if (uploadRef.current !== upload) return;
      if (err instanceof TusStop && err.reason === "paused") {
        setPhase("paused");
        setStatus(t("msg:media.uploadPaused"));
        return;
      }
      setPhase("failed");
      const failed = t("msg:media.uploadFailed");
      const detail = err instanceof TusStop ? err.serverMessage : undefined;
      setStatus(detail ? `${failed}: ${detail}` : failed);
      void message.error(failed);
    }
  };

  const begin = (chosen: File) => {
    uploadRef.current?.pause();
    const upload = new TusUpload({
      endpoint: TUS_ENDPOINT,
      file: chosen,
      metadata: {
        filename: chosen.name,
        filetype: chosen.type,
        name: chosen.name.replace(/\.[^.]*$/, "").slice(0, 100),
        type: String(type),
        id: id ?? "",
        videosize: String(sizeInKb(chosen.size)),
        zhuanma: "0",
        isAudioType: isAudioType ? "true" : "false",
      },
      fingerprintScope: `${uploaderScope()}|${type}|${id ?? ""}`,
      headers: uploadHeaders,
      fetch: (input, init) => window.fetch(input, init),
      storage: window.localStorage,
      onProgress: (sent, total) => {
        if (uploadRef.current === upload) setPercent(Math.min(99, Math.floor((sent / total) * 100)));
      },
    });
    uploadRef.current = upload;
    void run(upload);
  };

  const choose = (chosen: File | undefined) => {
    if (!chosen) return;
    const problem = checkMediaFile(chosen, isAudioType);
    if (problem) {
      uploadRef.current?.pause();
      uploadRef.current = null;
      setFile(null);
      setPhase("rejected");
      setPercent(0);
      const text = t(problem, { ns: "msg" });
      setStatus(text);
      void message.error(text);
      return;
    }
    setFile(chosen);
    setPercent(0);
    begin(chosen);
  };

  const start = () => {
    if (!file) {
      setStatus(t("msg:media.chooseFile"));
      return;
    }
    if (phase === "failed" || phase === "paused") begin(file);
  };
  const pause = () => uploadRef.current?.pause();
  const resume = () => {
    if (phase === "paused" && uploadRef.current) void run(uploadRef.current);
  };

  const close = () => {
    const unfinished = phase === "uploading" || phase === "paused";
    if (!unfinished) {
      dismiss();
      return;
    }
    modal.confirm({
      title: t("msg:media.leaveUnfinished"),
      okText: t("media.dialog.leave"),
      cancelText: t("media.dialog.stay"),
      onOk: dismiss,
    });
  };

  return (
    <Modal
      open={open}
      title={t("media.dialog.title")}
      width={700}
      maskClosable={false}
      keyboard={false}
      footer={null}
      onCancel={close}
      destroyOnHidden
    >
      <Flex
        vertical
        align="center"
        gap={20}
        style={{ padding: "16px 0 8px" }}
        data-testid="upload-dialog"
        data-state={phase}
        data-percent={percent}
      >
        <Progress
          type="circle"
          percent={percent}
          status={phase === "failed" ? "exception" : phase === "done" ? "success" : "normal"}
          aria-label={t("media.dialog.progress")}
        />
        <Typography.Text
          type={phase === "failed" || phase === "rejected" ? "danger" : undefined}
          data-testid="upload-status"
          role="status"
        >
          {status}
        </Typography.Text>
        {file && (
          <Typography.Text type="secondary" data-testid="upload-file">
            {file.name} · {formatSize(file.size)}
          </Typography.Text>
        )}
        <input
          ref={inputRef}
          type="file"
          accept={accept}
          style={{ display: "none" }}
          data-testid="upload-input"
          onChange={(e) => {
            choose(e.target.files?.[0]);
            e.target.value = "";
          }}
        />
        <Flex gap={12} wrap justify="center">
          <Button
            data-testid="upload-add"
            icon={<FolderAddOutlined />}
            onClick={() => inputRef.current?.click()}
            disabled={phase === "uploading"}
          >
            {t(isAudioType ? "media.dialog.addAudio" : "media.dialog.addFile")}
          </Button>
          <Button
            data-testid="upload-start"
            type="primary"
            icon={<UploadOutlined />}
            onClick={start}
            disabled={phase === "uploading" || phase === "done"}
          >
            {t("media.dialog.start")}
          </Button>
          <Button data-testid="upload-pause" icon={<PauseOutlined />} onClick={pause} disabled={phase !== "uploading"}>
            {t("media.dialog.pause")}
          </Button>
          <Button
            data-testid="upload-resume"
            icon={<PlayCircleOutlined />}
            onClick={resume}
            disabled={phase !== "paused"}
          >
            {t("media.dialog.resume")}
          </Button>
        </Flex>
        <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: "center" }}>
          {t(isAudioType ? "media.dialog.audioHint" : "media.dialog.videoHint", {
            list: (isAudioType ? AUDIO_EXTENSIONS : VIDEO_EXTENSIONS).join(", "),
          })}
        </Typography.Text>
      </Flex>
    </Modal>
  );
}
