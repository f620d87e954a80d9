import { Button, type TableColumnsType } from "antd";
import type { ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { QrCode, Store } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeApi, storeKeys } from "./api";
import { QrCodeDialog } from "./QrCodeDialog";
import { useRegions } from "./regions";
import { storeColumns, storeFilters, storeSearch } from "./StoresTable";
import { BrandContext } from "../onboarding/BrandContext";

/** `/providers/brandShopCode?sellerBrand=<id>`: the shop QR codes of a brand's stores, made and downloaded by its service provider with the brand token. */
export default function BrandShopCode() {
  const { t } = useTranslation();
  const hint = (
    <PageHint
      id="providers.brandShopCode"
      title={t("stores.title.brandShopCode")}
      description={t("stores.hint.brandShopCode")}
    />
  );
  return (
    <BrandContext hint={hint}>
      <ShopCodes header={hint} />
    </BrandContext>
  );
}

function ShopCodes({ header }: { header: ReactNode }) {
  const { t } = useTranslation();
  const regions = useRegions();
  const [code, setCode] = useState<QrCode | null>(null);
  const show = async (s: Store) => {
    const r = await storeApi.bindShopCode(s.id);
    if (r?.ok) setCode(r.data);
  };
  const columns: TableColumnsType<Store> = [
    ...storeColumns(t),
    {
      title: t("stores.actions"),
      key: "actions",
      width: 110,
      fixed: "right",
      render: (_: unknown, s) => (
        <Button type="link" size="small" onClick={() => void show(s)}>
          {t("stores.shopCode")}
        </Button>
      ),
    },
  ];
  return (
    <>
      <ListPage<Store>
        header={header}
        rowKey="id"
        columns={columns}
        scrollX={1300}
        search={storeSearch(t, regions)}
        query={(state) => {
          const q = { page: state.page, pageSize: state.pageSize, ...storeFilters(state.values) };
          return { queryKey: storeKeys.list("shopcode", q), queryFn: () => storeApi.list(q) };
        }}
      />
      {code && <QrCodeDialog code={code} onClose={() => setCode(null)} />}
    </>
  );
}
