import { useQueryClient } from "@tanstack/react-query";
import { App, Button, Image, Space, Tag, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CommodityKind, Commodity } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { buyerApi, commerceKeys } from "./api";
import { priceRange, skuLabel } from "./labels";
import { OrderDialog } from "./OrderDialog";

/**
 * Brands' goods of one kind for a purchaser: PhysicalSelection and VirtualGoods (everything on the shelf,
 * pick to resell) and RealGoods (`picked`: the purchaser's picks). Order opens the order dialog.
 */
export function GoodsPage({
  kind,
  picked,
  hintId,
  titleKey,
  hintKey,
}: {
  kind: CommodityKind;
  picked?: boolean;
  hintId: string;
  /** i18n keys of the page hint's title and text. */
  titleKey: string;
  hintKey: string;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [ordering, setOrdering] = useState<Commodity | null>(null);
  const refresh = () => void qc.invalidateQueries({ queryKey: commerceKeys.all });

  const togglePick = async (c: Commodity) => {
    const r = c.picked ? await buyerApi.unpick(c.id) : await buyerApi.pick(c.id);
    if (r?.ok) {
      void message.success(c.picked ? t("commerce.unpick") : t("commerce.picked"));
      refresh();
    }
  };

  const columns: TableColumnsType<Commodity> = [
    {
      title: t("commerce.name"),
      key: "name",
      width: 260,
      render: (_: unknown, c) => (
        <Space>
          {c.images[0] && (
            <Image src={c.images[0]} width={40} height={40} style={{ objectFit: "cover" }} preview={false} />
          )}
          <span>{c.name}</span>
        </Space>
      ),
    },
    { title: t("commerce.brand"), dataIndex: "merchantName", width: 160, ellipsis: true },
    { title: t("commerce.category"), dataIndex: "category", width: 110 },
    {
      title: t("commerce.specs"),
      key: "specs",
      width: 220,
      render: (_: unknown, c) => c.skus.map((s) => <Tag key={s.id}>{skuLabel(s.specs)}</Tag>),
    },
    { title: t("commerce.price"), key: "price", width: 150, align: "right", render: (_: unknown, c) => priceRange(c) },
    { title: t("commerce.stock"), dataIndex: "stock", width: 90, align: "right" },
    {
      title: t("commerce.actions"),
      key: "actions",
      width: 190,
      fixed: "right",
      render: (_: unknown, c) => (
        <Space size={0}>
          <Button type="link" size="small" disabled={c.stock === 0 || !c.onShelf} onClick={() => setOrdering(c)}>
            {t("commerce.buy")}
          </Button>
          <Button type="link" size="small" onClick={() => void togglePick(c)}>
            {c.picked ? t("commerce.unpick") : t("commerce.pick")}
          </Button>
          {c.picked && !picked && <Tag color="green">{t("commerce.picked")}</Tag>}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<Commodity>
        header={<PageHint id={hintId} title={t(titleKey)} description={t(hintKey)} />}
        rowKey="id"
        columns={columns}
        scrollX={1200}
        search={{ input: { keys: [{ value: "name", label: t("commerce.name") }] } }}
        query={(state) => {
          const q = {
            page: state.page,
            pageSize: state.pageSize,
            kind,
            name: typeof state.values.inpVal === "string" ? state.values.inpVal : undefined,
            ...(picked && { picked: "yes" as const }),
          };
          return { queryKey: commerceKeys.selection(q), queryFn: () => buyerApi.selection(q) };
        }}
      />
      {ordering && (
        <OrderDialog
          commodity={ordering}
          onClose={() => setOrdering(null)}
          onOrdered={() => {
            setOrdering(null);
            refresh();
          }}
        />
      )}
    </>
  );
}
