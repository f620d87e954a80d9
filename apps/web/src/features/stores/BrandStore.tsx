import { DownloadOutlined } from "@ant-design/icons";
import { useQueryClient } from "@tanstack/react-query";
import { Alert, App, Button, Space, Table, Upload, type TableColumnsType } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { QrCode, Store, StoreBatchReply } from "@tessera/contracts";
import { saveFile } from "../../api/http";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { importStores, storeApi, storeKeys } from "./api";
import { ClerksDrawer } from "./ClerksDrawer";
import { QrCodeDialog } from "./QrCodeDialog";
import { StoreFormDialog } from "./StoreFormDialog";
import { StorePayCodes } from "./StorePayCodes";
import { useRegions } from "./regions";
import { storeColumns, storeFilters, storeSearch } from "./StoresTable";

/**
 * `/business/BrandStore`: the brand's stores (spec 01 §7 branderStores): filters by keyword, state and
 * region; add and edit; delete (refused while a store has unsettled redemptions); import from the xlsx
 * template with a reject report; export; the store's clerks, its shop QR code and its collection codes;
 * the business districts stores are grouped in are managed on /sale/BusinessDistrict (linked).
 */
export default function BrandStore() {
  const { t } = useTranslation();
  const regions = useRegions();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Store | null | undefined>(undefined);
  const [clerksOf, setClerksOf] = useState<Store | null>(null);
  const [code, setCode] = useState<{ code: QrCode; store: Store } | null>(null);
  const [imported, setImported] = useState<StoreBatchReply | null>(null);
  const [uploading, setUploading] = useState(false);
  const refresh = () => void qc.invalidateQueries({ queryKey: storeKeys.all });

  const showCode = async (s: Store) => {
    const r = await storeApi.bindShopCode(s.id);
    if (r?.ok) setCode({ code: r.data, store: s });
  };
  const remove = (ids: string[]) =>
    void modal.confirm({
      title: t("stores.deleteConfirm", { count: ids.length }),
      okButtonProps: { danger: true },
      onOk: async () => {
        const r = await storeApi.remove(ids);
        if (r?.ok) {
          void message.success(t("stores.deleted"));
          refresh();
        }
      },
    });
  const upload = async (file: File) => {
    setUploading(true);
    try {
      const r = await importStores(file);
      if (!r.ok) {
        void message.error(r.msg);
        return;
      }
      setImported(r.data);
      void message.success(t("stores.importDone", { imported: r.data.imported, rejected: r.data.rejected }));
      refresh();
    } finally {
      setUploading(false);
    }
  };
  const download = async (p: ReturnType<typeof storeApi.template>) => {
    const r = await p;
    if (r?.ok) saveFile(r.data.blob, r.data.fileName);
  };

  const columns: TableColumnsType<Store> = [
    ...storeColumns(t),
    { title: t("stores.clerks"), dataIndex: "clerks", width: 80, align: "right" },
    {
      title: t("stores.actions"),
      key: "actions",
      width: 230,
      fixed: "right",
      render: (_: unknown, s) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing(s)}>
            {t("stores.edit")}
          </Button>
          <Button type="link" size="small" onClick={() => setClerksOf(s)}>
            {t("stores.clerks")}
          </Button>
          <Button type="link" size="small" onClick={() => void showCode(s)} data-testid={`qr-${s.name}`}>
            {t("stores.shopCode")}
          </Button>
          <Button type="link" size="small" danger onClick={() => remove([s.id])}>
            {t("stores.delete")}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <>
      <ListPage<Store>
        header={
          <>
            <PageHint
              id="business.BrandStore"
              title={t("stores.title.BrandStore")}
              description={t("stores.hint.brandStore")}
            />
            <Space wrap>
              <Button icon={<DownloadOutlined />} onClick={() => void download(storeApi.template())}>
                {t("stores.template")}
              </Button>
              <Upload
                accept=".xlsx"
                showUploadList={false}
                beforeUpload={(file) => {
                  void upload(file);
                  return false;
                }}
              >
                <Button type="primary" loading={uploading} data-testid="store-import">
                  {t("stores.import")}
                </Button>
              </Upload>
              <Link to="/sale/BusinessDistrict" data-testid="store-districts-link">
                {t("stores.manageDistricts")}
              </Link>
            </Space>
            {imported && (
              <Alert
                type={imported.rejected > 0 ? "warning" : "success"}
                showIcon
                closable
                onClose={() => setImported(null)}
                title={t("stores.importDone", { imported: imported.imported, rejected: imported.rejected })}
                description={
                  imported.rejected > 0 && (
                    <>
                      <Table
                        size="small"
                        rowKey="row"
                        pagination={false}
                        dataSource={imported.rejects}
                        columns={[
                          { title: t("stores.row"), dataIndex: "row", width: 70 },
                          { title: t("stores.name"), dataIndex: "name", width: 160 },
                          { title: t("stores.reason"), dataIndex: "reason" },
                        ]}
                      />
                      {imported.importId && (
                        <Button
                          type="link"
                          onClick={() => void download(storeApi.rejectReport(imported.importId ?? ""))}
                        >
                          {t("stores.rejectReport")}
                        </Button>
                      )}
                    </>
                  )
                }
              />
            )}
          </>
        }
        rowKey="id"
        columns={columns}
        scrollX={1500}
        search={{ add: { label: t("stores.add"), onClick: () => setEditing(null) }, ...storeSearch(t, regions) }}
        onBatchDelete={(keys) => remove(keys.map(String))}
        exportFile={(values) => ({
          path: "/api/card-brander/branderStores/export",
          query: { ...storeFilters(values) },
          fileName: "stores.xlsx",
        })}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, ...storeFilters(state.values) };
          return { queryKey: storeKeys.list("brand", q), queryFn: () => storeApi.list(q) };
        }}
      />
      {editing !== undefined && (
        <StoreFormDialog
          key={editing?.id ?? "new"}
          store={editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            refresh();
          }}
        />
      )}
      {clerksOf && <ClerksDrawer store={clerksOf} onClose={() => setClerksOf(null)} />}
      {code && (
        <QrCodeDialog code={code.code} onClose={() => setCode(null)}>
          <StorePayCodes storeId={code.store.id} />
        </QrCodeDialog>
      )}
    </>
  );
}
