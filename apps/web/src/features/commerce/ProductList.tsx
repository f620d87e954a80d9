import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Modal, Space, Switch, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import type { Commodity } from "@tessera/contracts";
import { useUserInfo } from "../../api/common";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { brandApi, commerceKeys } from "./api";
import { priceRange, skuLabel } from "./labels";
import { one } from "../onecard/query";
import { CommodityForm } from "./CommodityForm";
import { VideoDialog } from "./VideoDialog";

/** `/business/ProductList`: the brand's products: filters, on and off the shelf, edit with its SKUs. */
export default function ProductList() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const currency = useUserInfo().data?.merchant?.currency ?? "CNY";
  const [editing, setEditing] = useState<Commodity | null>(null);
  const [filming, setFilming] = useState<Commodity | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: commerceKeys.all });
  const shelf = async (c: Commodity, on: boolean) => {
    const r = await brandApi.shelf(c.id, on);
    if (r?.ok) {
      void message.success(on ? t("commerce.putOn") : t("commerce.takenOff"));
      refresh();
    }
  };

  const columns: TableColumnsType<Commodity> = [
    { title: t("commerce.name"), dataIndex: "name", width: 220, ellipsis: true },
    {
      title: t("commerce.kind.physical") + "/" + t("commerce.kind.virtual"),
      dataIndex: "kind",
      width: 100,
      render: (k: Commodity["kind"]) => <Tag>{t(`commerce.kind.${k}`)}</Tag>,
    },
    { title: t("commerce.category"), dataIndex: "category", width: 110 },
    {
      title: t("commerce.skus"),
      key: "skus",
      width: 260,
      render: (_: unknown, c) => c.skus.map((s) => <Tag key={s.id}>{`${skuLabel(s.specs)} · ${s.stock}`}</Tag>),
    },
    { title: t("commerce.price"), key: "price", width: 150, align: "right", render: (_: unknown, c) => priceRange(c) },
    { title: t("commerce.stock"), dataIndex: "stock", width: 80, align: "right" },
    { title: t("commerce.sold"), dataIndex: "sold", width: 80, align: "right" },
    { title: t("commerce.sort"), dataIndex: "sort", width: 70, align: "right" },
    {
      title: t("commerce.onShelf"),
      dataIndex: "onShelf",
      width: 90,
      render: (v: boolean, c) => (
        <Switch
          size="small"
          checked={v}
          onChange={(on) => void shelf(c, on)}
          aria-label={`${t("commerce.onShelf")} ${c.name}`}
        />
      ),
    },
    {
      title: t("commerce.actions"),
      key: "actions",
      width: 160,
      fixed: "right",
      render: (_: unknown, c) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(c)}>
            {t("commerce.edit")}
          </Button>
          <Button type="link" size="small" onClick={() => setFilming(c)} data-testid={`video-${c.name}`}>
            {c.videoid ? t("commerce.videoChange") : t("commerce.videoAdd")}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<Commodity>
        header={
          <PageHint
            id="business.ProductList"
            title={t("commerce.page.ProductList")}
            description={t("commerce.hint.products")}
          />
        }
        rowKey="id"
        columns={columns}
        scrollX={1300}
        search={{
          add: { label: t("commerce.add"), onClick: () => void navigate("/business/AddProducts") },
          input: { keys: [{ value: "name", label: t("commerce.name") }] },
          select: {
            keys: [
              {
                value: "onShelf",
                label: t("commerce.onShelf"),
                options: [
                  { value: "true", label: t("commerce.onShelf") },
                  { value: "false", label: t("commerce.offShelf") },
                ],
              },
            ],
          },
        }}
        query={(state) => {
          const sel = one(state.values.selVal);
          const q = {
            page: state.page,
            pagesize: state.pageSize,
            name: state.values.inpVal,
            ...(sel === "true" || sel === "false" ? { onShelf: sel === "true" } : {}),
          };
          return { queryKey: commerceKeys.commodities(q), queryFn: () => brandApi.commodities(q) };
        }}
      />
      {editing && (
        <Modal
          open
          title={t("commerce.editTitle")}
          onCancel={() => setEditing(null)}
          footer={null}
          width={860}
          destroyOnHidden
        >
          <CommodityForm
            key={editing.id}
            commodity={editing}
            currency={currency}
            onSaved={() => {
              setEditing(null);
              refresh();
            }}
          />
        </Modal>
      )}
      {filming && (
        <VideoDialog
          commodity={filming}
          onClose={(changed) => {
            setFilming(null);
            if (changed) refresh();
          }}
        />
      )}
    </>
  );
}
