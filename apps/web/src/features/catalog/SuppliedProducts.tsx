import { DownloadOutlined, TagsOutlined } from "@ant-design/icons";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { App, Button, Flex, Popconfirm, Space, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useNavigate } from "react-router";
import { BUSINESS_TYPES, GOODS_STATES, isCardBusinessType, type Goods } from "@tessera/contracts";
import { saveFile } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import type { ListState } from "../../ui/list/listQuery";
import type { SearchValues } from "../../ui/list/searchValues";
import { catalogApi, catalogKeys } from "./api";
import { BrandsDialog } from "./BrandsDialog";
import { GoodsFormDialog } from "./GoodsFormDialog";
import { useDictLabels } from "./labels";
import { useSuppliedGoodsColumns } from "./supplyColumns";
import { GoodsStoresDialog } from "../stores/GoodsStoresDialog";

function filtersOf(v: SearchValues) {
  const sel = typeof v.selVal === "string" ? v.selVal : undefined;
  const brand = typeof v.selValT === "string" ? v.selValT : undefined;
  return { keyword: v.inpVal, ...(sel && { [v.selKey ?? "state"]: sel }), brandId: brand };
}

function queryOf(state: ListState) {
  return { page: state.page, pageSize: state.pageSize, ...filtersOf(state.values) };
}

/**
 * `/business/SuppliedProducts` (and international `business/SuppliedProducts`): the supplier's goods
 * (spec 01 §2 screen 13, §3 Supplied goods): code, type, settlement base price, face value, invoice
 * type, purchase price, discount, quantity per order, weight, platform rate 0%, available stock and
 * state; add and edit every goods field, enable/disable/delete, brands, and the card import template.
 */
export default function SuppliedProducts() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const labels = useDictLabels();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const { data: brander } = useQuery({ queryKey: catalogKeys.brander, queryFn: catalogApi.brander });
  const [editing, setEditing] = useState<Goods | null | undefined>(undefined);
  const [brandsOpen, setBrandsOpen] = useState(false);
  // The goods whose redeemable stores are being set (its codes' write-off at the brand's stores).
  const [limiting, setLimiting] = useState<Goods | null>(null);
  // Opened from "new goods" without a brand: the dialog says why it opened instead of the goods form.
  const [brandFirst, setBrandFirst] = useState(false);
  const currency = brander?.currency ?? "CNY";
  const brands = brander?.brands ?? [];

  const refresh = () => void queryClient.invalidateQueries({ queryKey: catalogKeys.all });

  const act = async (p: Promise<{ ok: boolean } | undefined>, done: string) => {
    const r = await p;
    if (r?.ok) {
      void message.success(done);
      refresh();
    }
  };

  const downloadTemplate = async () => {
    const r = await catalogApi.template();
    if (r?.ok) saveFile(r.data.blob, r.data.fileName);
  };

  const supplied = useSuppliedGoodsColumns();
  const columns: TableColumnsType<Goods> = [
    ...supplied,
    {
      title: t("catalog.field.actions"),
      key: "actions",
      width: 290,
      fixed: "right",
      render: (_: unknown, g) =>
        g.state === "void" ? null : (
          <Space size={0} wrap>
            <Button type="link" size="small" onClick={() => setEditing(g)}>
              {t("catalog.action.edit")}
            </Button>
            {isCardBusinessType(g.businessType) && (
              <Button
                type="link"
                size="small"
                onClick={() =>
                  void navigate(`${location.pathname.replace(/SuppliedProducts$/, "CardImport")}?goodsId=${g.id}`)
                }
              >
                {t("catalog.action.cards")}
              </Button>
            )}
            {isCardBusinessType(g.businessType) && (
              <Button type="link" size="small" onClick={() => setLimiting(g)} data-testid={`goods-stores-${g.id}`}>
                {t("writeoff.redeemableStores")}
              </Button>
            )}
            <Button
              type="link"
              size="small"
              onClick={() =>
                void act(
                  catalogApi.setState(g.id, g.state === "available" ? "disabled" : "available"),
                  t("catalog.msg.saved"),
                )
              }
            >
              {g.state === "available" ? t("catalog.action.disable") : t("catalog.action.enable")}
            </Button>
            <Popconfirm
              title={t("catalog.action.deleteConfirm")}
              onConfirm={() => void act(catalogApi.remove(g.id), t("catalog.msg.deleted"))}
            >
              <Button type="link" size="small" danger>
                {t("catalog.action.delete")}
              </Button>
            </Popconfirm>
          </Space>
        ),
    },
  ];

  const header = (
    <Flex vertical gap={16}>
      <PageHint
        id="business.SuppliedProducts"
        title={t("catalog.hint.suppliedTitle")}
        description={t("catalog.hint.supplied")}
      />
      <Space>
        <Button icon={<DownloadOutlined />} onClick={() => void downloadTemplate()}>
          {t("catalog.action.downloadTemplate")}
        </Button>
        <Button
          icon={<TagsOutlined />}
          onClick={() => {
            setBrandFirst(false);
            setBrandsOpen(true);
          }}
        >
          {t("catalog.action.brands")}
        </Button>
      </Space>
    </Flex>
  );

  return (
    <>
      <ListPage<Goods>
        header={header}
        rowKey="id"
        columns={columns}
        scrollX={2200}
        search={{
          add: {
            label: t("catalog.action.add"),
            onClick: () => {
              if (brands.length) return setEditing(null);
              setBrandFirst(true);
              setBrandsOpen(true);
            },
          },
          input: { keys: [{ value: "keyword", label: t("catalog.field.keyword") }] },
          select: {
            keys: [
              {
                value: "state",
                label: t("catalog.field.state"),
                options: GOODS_STATES.map((s) => ({ value: s, label: t(`catalog.state.${s}`) })),
              },
              {
                value: "businessType",
                label: t("catalog.field.businessType"),
                options: BUSINESS_TYPES.map((b) => ({ value: b, label: labels.businessType(b) })),
              },
            ],
          },
          selectT: {
            keys: [
              {
                value: "brandId",
                label: t("catalog.field.brand"),
                options: brands.map((b) => ({ value: String(b.id), label: b.name })),
              },
            ],
          },
        }}
        query={(state) => {
          const q = queryOf(state);
          return { queryKey: catalogKeys.products(q), queryFn: () => catalogApi.products(q) };
        }}
        exportFile={(values) => ({
          path: "/api/card-brander/product/export",
          query: filtersOf(values),
          fileName: "goods.xlsx",
        })}
      />
      {editing !== undefined && (
        <GoodsFormDialog
          key={editing?.id ?? "new"}
          open
          goods={editing ?? null}
          brands={brands}
          currency={currency}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            refresh();
          }}
        />
      )}
      {limiting && (
        <GoodsStoresDialog
          key={limiting.id}
          open
          goods={{ id: String(limiting.id), name: limiting.name }}
          onClose={() => setLimiting(null)}
        />
      )}
      <BrandsDialog
        open={brandsOpen}
        brands={brands}
        onClose={() => setBrandsOpen(false)}
        onChanged={refresh}
        notice={brandFirst ? t("catalog.msg.brandFirst") : undefined}
      />
    </>
  );
}
