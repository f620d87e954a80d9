import { useQuery } from "@tanstack/react-query";
import { Card, Empty, Flex, Segmented, Tag, Typography } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { Page, StoreGoods } from "@tessera/contracts";
import { formatMoney } from "../../components/money";
import { mallCall } from "./mallApi";
import { MallShell, themeOf, useAppId } from "./MallShell";

/** `/mall/:appId`: the mall's home: brand show, the configured navigation menu, gift packs and goods. */
export default function MallHome() {
  const { t } = useTranslation();
  const appId = useAppId();
  // `?kind=goods|bag`: the list a bottom-menu entry opens.
  const [search, setSearch] = useSearchParams();
  const k = search.get("kind");
  const kind: "all" | "goods" | "bag" = k === "goods" || k === "bag" ? k : "all";
  const setKind = (v: "all" | "goods" | "bag") => setSearch(v === "all" ? {} : { kind: v }, { replace: true });
  const goods = useQuery({
    queryKey: ["mall-goods", appId, kind],
    queryFn: async () => {
      const r = await mallCall<Page<StoreGoods>>(appId, "GET", `/goods?pageSize=100${kind === "all" ? "" : `&kind=${kind}`}`);
      return r.ok ? r.data.list : [];
    },
  });
  return (
    <MallShell>
      {(sf) => {
        const colours = themeOf(sf);
        return (
          <Flex vertical gap={12}>
            {(sf.brand.title || sf.brand.intro) && (
              <Card size="small" style={{ background: colours.tint }} data-testid="brand-show">
                {sf.brand.image && <img src={sf.brand.image} alt="" style={{ width: "100%", borderRadius: 8, marginBottom: 8 }} />}
                <Typography.Text strong>{sf.brand.title}</Typography.Text>
                <Typography.Paragraph style={{ margin: 0, fontSize: 13 }}>{sf.brand.intro}</Typography.Paragraph>
              </Card>
            )}
            <Segmented
              block
              value={kind}
              onChange={(v) => setKind(v === "goods" || v === "bag" ? v : "all")}
              options={[
                { value: "all", label: t("mall.all") },
                ...sf.navMenus.filter((m) => /^\/?(bags|goods)$/.test(m.target)).map((m) => ({ value: m.target.endsWith("bags") ? ("bag" as const) : ("goods" as const), label: m.title })),
              ].filter((o, i, a) => a.findIndex((x) => x.value === o.value) === i)}
            />
            {goods.data?.length === 0 && <Empty description={t("mall.noGoods")} />}
            <div style={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 10 }}>
              {goods.data?.map((g) => (
                <Link key={`${g.kind}-${g.id}`} to={`/mall/${encodeURIComponent(appId)}/item/${g.kind}/${g.id}`} data-testid="mall-goods">
                  <Card size="small" style={{ height: "100%" }} styles={{ body: { padding: 10 } }}>
                    <div style={{ height: 64, borderRadius: 6, background: colours.tint, color: colours.primary, display: "flex", alignItems: "center", justifyContent: "center", fontWeight: 600, marginBottom: 8 }}>
                      {g.kind === "bag" ? t("mall.pack") : g.brandName || t("mall.equity")}
                    </div>
                    <Typography.Text strong ellipsis style={{ display: "block" }}>
                      {g.name}
                    </Typography.Text>
                    <Flex justify="space-between" align="center">
                      <span style={{ color: colours.primary, fontWeight: 600 }}>{formatMoney(g.price)}</span>
                      {!g.available ? <Tag>{t("mall.soldOut")}</Tag> : <Tag color={g.delivery === "topup" ? "blue" : "green"}>{t(`mall.delivery.${g.delivery}`)}</Tag>}
                    </Flex>
                  </Card>
                </Link>
              ))}
            </div>
          </Flex>
        );
      }}
    </MallShell>
  );
}
