import { useQuery } from "@tanstack/react-query";
import { App, Empty, Modal, Select, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Commodity } from "@tessera/contracts";
import { libraryKey, libraryPage } from "../media/api";
import { brandApi } from "./api";

/**
 * A commodity's video (issue 40, item 18; `commodity/video/update`): chosen from the merchant's video library
 * by name, never typed as an id; clearing the choice removes it. An empty library says where videos are added.
 */
export function VideoDialog({ commodity, onClose }: { commodity: Commodity; onClose: (changed: boolean) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [videoid, setVideoid] = useState<string | null>(commodity.videoid);
  const [busy, setBusy] = useState(false);
  const query = { page: 1, pagesize: 200 };
  const library = useQuery({ queryKey: libraryKey(query), queryFn: () => libraryPage(query) });
  const videos = (library.data?.list ?? []).filter((v) => v.kind === "video");
  // With nothing to choose (and no video to clear) there is nothing to save: the dialog only says where
  // videos are added, and its one button closes it.
  const empty = !library.isLoading && videos.length === 0;
  const nothingToSave = empty && !commodity.videoid;
  const save = async () => {
    setBusy(true);
    const r = await brandApi.video(commodity.id, videoid);
    setBusy(false);
    if (r?.ok) {
      void message.success(t("commerce.videoSaved"));
      onClose(true);
    }
  };
  return (
    <Modal
      open
      title={`${t("commerce.video")} · ${commodity.name}`}
      okText={t("commerce.save")}
      onOk={() => void save()}
      confirmLoading={busy}
      onCancel={() => onClose(false)}
      okButtonProps={{ "data-testid": "video-save" }}
      footer={nothingToSave ? (_, { CancelBtn }) => <CancelBtn /> : undefined}
    >
      {empty ? (
        <Empty
          description={
            <>
              {t("commerce.videoEmpty")} <Link to="/business/VideoLibrary">{t("commerce.videoLibrary")}</Link>
            </>
          }
        />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t("commerce.videoHint")}</Typography.Paragraph>
          <Select
            style={{ width: "100%" }}
            allowClear
            showSearch={{ optionFilterProp: "label" }}
            loading={library.isLoading}
            value={videoid ?? undefined}
            onChange={(v?: string) => setVideoid(v ?? null)}
            placeholder={t("commerce.videoChoose")}
            aria-label={t("commerce.videoChoose")}
            data-testid="video-choose"
            options={videos.map((v) => ({ value: v.videoid, label: v.name }))}
          />
        </>
      )}
    </Modal>
  );
}
