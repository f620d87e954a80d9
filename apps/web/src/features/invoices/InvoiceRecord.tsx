import { Button, Space, type TableColumnsType } from "antd";
import { useTranslation } from "react-i18next";
import type { Invoice } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { downloadInvoicePdf, invoiceApi, invoiceKeys, type InvoiceListQuery } from "./api";
import { useInvoiceColumns } from "./columns";
import { invoiceFilters, useInvoiceSearch } from "./search";

/**
 * `/sale/InvoiceRecord`: the purchaser's invoices as they go (requested, issued, delivered, refused,
 * reversed by a red-letter invoice), with the PDFs to download.
 */
export default function InvoiceRecord() {
  const { t } = useTranslation();
  const search = useInvoiceSearch();
  const columns: TableColumnsType<Invoice> = [
    ...useInvoiceColumns("user"),
    {
      title: t("invoices.col.action"),
      key: "action",
      width: 170,
      fixed: "right",
      render: (_: unknown, r) => (
        <Space size={0} wrap>
          {r.invoiceNo && (
            <Button
              type="link"
              size="small"
              onClick={() => void downloadInvoicePdf(r, false, "user")}
              data-testid={`pdf-${r.id}`}
            >
              {t("invoices.pdf")}
            </Button>
          )}
          {r.redInvoiceNo && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => void downloadInvoicePdf(r, true, "user")}
              data-testid={`red-pdf-${r.id}`}
            >
              {t("invoices.redPdf")}
            </Button>
          )}
        </Space>
      ),
    },
  ];
  return (
    <ListPage<Invoice>
      header={
        <PageHint
          id="sale.InvoiceRecord"
          title={t("invoices.hint.recordTitle")}
          description={t("invoices.hint.record")}
        />
      }
      rowKey="id"
      columns={columns}
      scrollX={1700}
      search={search}
      query={(state) => {
        const q: InvoiceListQuery = { page: state.page, pageSize: state.pageSize, ...invoiceFilters(state.values) };
        return { queryKey: invoiceKeys.list(q), queryFn: () => invoiceApi.list(q) };
      }}
    />
  );
}
