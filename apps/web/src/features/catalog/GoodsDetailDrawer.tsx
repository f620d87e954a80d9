import { useQuery } from "@tanstack/react-query";
import { Descriptions, Drawer, Empty, Image, Space, Spin, Tag } from "antd";
import { useTranslation } from "react-i18next";
import { isCardBusinessType } from "@tessera/contracts";
import { formatMoney } from "../../ui/money";
import { PurchaseForm } from "../purchasing/PurchaseForm";
import { percent, useDictLabels } from "./labels";
import { selectionApi, selectionKeys } from "./selectionApi";

/** The goods detail of the goods selection: every field a purchaser may see (no settlement price). */
export function GoodsDetailDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const labels = useDictLabels();
  const { data: g, isLoading } = useQuery({
    queryKey: selectionKeys.detail(id ?? 0),
    queryFn: () => selectionApi.detail(id ?? 0),
    enabled: id !== null,
  });
  const money = (amount: number) => (g ? formatMoney({ amount, currency: g.currency }) : "");
  return (
    // Above the app header (z-index 1001), so the drawer's own title and close button show.
    <Drawer open={id !== null} onClose={onClose} size={640} zIndex={1100} title={t("catalog.detail.title")}>
      {isLoading || !g ? (
        <Spin />
      ) : (
        <Space direction="vertical" size={16} style={{ width: "100%" }}>
          {g.images.length ? (
            <Image.PreviewGroup>
              <Space wrap>
                {g.images.map((img) => (
                  <Image key={img.key} src={img.thumbUrl} preview={{ src: img.url }} width={120} alt={g.name} />
                ))}
              </Space>
            </Image.PreviewGroup>
          ) : (
            <Empty description={t("catalog.detail.noImages")} image={Empty.PRESENTED_IMAGE_SIMPLE} />
          )}
          <Descriptions
            bordered
            size="small"
            column={1}
            items={[
              { key: "id", label: t("catalog.field.id"), children: g.id },
              { key: "name", label: t("catalog.field.name"), children: g.name },
              { key: "brand", label: t("catalog.field.brand"), children: g.brandName },
              { key: "supplier", label: t("catalog.field.supplier"), children: `${g.supplierName} (${g.supplierId})` },
              { key: "type", label: t("catalog.field.businessType"), children: labels.businessType(g.businessType) },
              { key: "equity", label: t("catalog.field.equityType"), children: t(`catalog.equity.${g.equityType}`) },
              { key: "code", label: t("catalog.field.code"), children: g.code },
              { key: "face", label: t("catalog.field.faceValue"), children: money(g.faceValue) },
              {
                key: "price",
                label: t("catalog.field.price"),
                children: g.ownPrice
                  ? t("application.ownPrice", { price: money(g.price), list: money(g.listPrice) })
                  : money(g.price),
              },
              { key: "discount", label: t("catalog.field.discount"), children: percent(g.discountBp) },
              { key: "per", label: t("catalog.field.perOrderMax"), children: g.perOrderMax },
              {
                key: "deduct",
                label: t("catalog.field.deductionAccount"),
                children: t(`catalog.deduction.${g.deductionAccount}`),
              },
              { key: "invoice", label: t("catalog.field.invoiceType"), children: labels.invoiceType(g.invoiceType) },
              { key: "scope", label: t("catalog.field.salesScope"), children: t(`catalog.scope.${g.salesScope}`) },
              {
                key: "account",
                label: t("catalog.field.topUpAccountType"),
                children: t(`catalog.topUpAccount.${g.topUpAccountType}`),
              },
              {
                key: "arrival",
                label: t("catalog.field.arrivalQueryMethod"),
                children: t(`catalog.arrival.${g.arrivalQueryMethod}`),
              },
              { key: "limits", label: t("catalog.field.topUpRestrictions"), children: g.topUpRestrictions || "-" },
              { key: "rec", label: t("catalog.field.recommendationIndex"), children: g.recommendationIndex },
              { key: "sales", label: t("catalog.field.salesIndex"), children: g.salesIndex },
              {
                key: "smart",
                label: t("catalog.field.smartPurchase"),
                children: g.smartPurchase ? <Tag color="blue">✓</Tag> : "-",
              },
              { key: "stock", label: t("catalog.field.stock"), children: g.stock },
              {
                key: "desc",
                label: t("catalog.field.description"),
                children: <div style={{ whiteSpace: "pre-wrap" }}>{g.description || "-"}</div>,
              },
            ]}
          />
          <PurchaseForm
            goods={{
              id: g.id,
              price: g.price,
              currency: g.currency,
              perOrderMax: g.perOrderMax,
              fromStock: isCardBusinessType(g.businessType),
              ownPrice: g.ownPrice,
              topUpAccountType: g.topUpAccountType,
            }}
          />
        </Space>
      )}
    </Drawer>
  );
}
