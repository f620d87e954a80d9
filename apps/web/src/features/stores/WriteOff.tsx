import { MobileOutlined, ShopOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Redemption } from "@tessera/contracts";
import { ListPage } from "../../ui/list/ListPage";
import { PageHint } from "../../ui/PageHint";
import { storeKeys, writeOffApi } from "./api";
import { GoodsStoresDialog } from "./GoodsStoresDialog";
import { dayRange, redemptionColumns } from "./writeoffLists";

/**
 * `/business/WriteOff`: redemption records (spec 01 §7 hyAccounts, 核验): what the brand's stores redeemed
 * (a clerk sees their own store's), with the link to the phone verification page `/verify` and the
 * "redeemable stores" dialog (where a goods' codes may be redeemed).
 */
export default function WriteOff() {
  const { t } = useTranslation();
  const [limiting, setLimiting] = useState(false);
  return (
    <>
      <ListPage<Redemption>
        header={
          <Space orientation="vertical" style={{ width: "100%" }}>
            <PageHint
              id="business.WriteOff"
              title={t("writeoff.title.records")}
              description={t("writeoff.hint.records")}
            />
            <Space wrap>
              <Link to="/verify">
                <Button type="primary" icon={<MobileOutlined />} data-testid="open-verify">
                  {t("writeoff.openVerify")}
                </Button>
              </Link>
              <Button icon={<ShopOutlined />} onClick={() => setLimiting(true)} data-testid="open-goods-stores">
                {t("writeoff.redeemableStores")}
              </Button>
            </Space>
          </Space>
        }
        rowKey="id"
        columns={redemptionColumns(t)}
        scrollX={1400}
        search={{
          dateMode: "date",
          select: {
            keys: [
              {
                value: "settled",
                label: t("writeoff.settled"),
                options: [
                  { value: "true", label: t("writeoff.settledYes") },
                  { value: "false", label: t("writeoff.settledNo") },
                ],
              },
            ],
          },
        }}
        exportFile={(values) => ({
          path: "/api/card-brander/hyAccounts/export",
          query: { ...dayRange(values) },
          fileName: "redemptions.xlsx",
        })}
        query={(state) => {
          const sel = typeof state.values.selVal === "string" ? state.values.selVal : undefined;
          const settled: "true" | "false" | undefined = sel === "true" || sel === "false" ? sel : undefined;
          const q = { page: state.page, pageSize: state.pageSize, ...dayRange(state.values), settled };
          return { queryKey: storeKeys.redemptions("brand", q), queryFn: () => writeOffApi.records(q) };
        }}
      />
      <GoodsStoresDialog open={limiting} onClose={() => setLimiting(false)} />
    </>
  );
}
