import { LoginOutlined } from "@ant-design/icons";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { Alert, Button, Card, Empty, Flex, List, Result } from "antd";
import { useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import type { ServiceBinding } from "@tessera/contracts";
import {
  brandGrantSnapshot,
  dropBrandGrant,
  parseBrandGrant,
  saveBrandGrant,
  subscribeBrandGrants,
} from "../../api/brandTokens";
import { servedQuery, useBrandTokenExchange } from "./api";
import { formatTime } from "../../ui/time";

export const BRANDS_LIST = "/providers/BrandsList";

/** No live brand token for the page's brand (never exchanged, ended or revoked): back to the brands list. */
export function BrandGrantMissing({ ended }: { ended: boolean }) {
  const { t } = useTranslation();
  return (
    <Result
      status="warning"
      title={t(ended ? "providers.brand.expired" : "providers.brand.missing")}
      subTitle={t(ended ? "providers.brand.expiredBody" : "providers.brand.missingBody")}
      extra={
        <Link to={BRANDS_LIST}>
          <Button type="primary">{t("providers.brand.backToList")}</Button>
        </Link>
      }
      data-testid="brand-context-missing"
    />
  );
}

/** Without `sellerBrand`: the brands bound to this provider, each opened here with a brand token. */
function ChooseBrand() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const exchange = useBrandTokenExchange();
  const { data, isPending } = useQuery(servedQuery({ page: 1, pageSize: 200, kind: "brand" }));
  const open = async (row: ServiceBinding) => {
    const r = await exchange.mutateAsync(row.id);
    if (!r?.ok) return;
    const grant = saveBrandGrant(r.data, row.merchantName);
    void navigate(`${pathname}?sellerBrand=${grant.branderId}`);
  };
  return (
    <Card variant="borderless" title={t("providers.brand.choose")}>
      {!isPending && (data?.list.length ?? 0) === 0 ? (
        <Empty description={t("providers.brand.noBrands")} />
      ) : (
        <List
          loading={isPending}
          dataSource={data?.list ?? []}
          renderItem={(row) => (
            <List.Item
              actions={[
                <Button
                  key="open"
                  type="primary"
                  icon={<LoginOutlined />}
                  loading={exchange.isPending && exchange.variables === row.id}
                  onClick={() => void open(row)}
                  data-testid={`open-brand-${row.merchantId}`}
                >
                  {t("providers.list.enterBrand")}
                </Button>,
              ]}
            >
              <List.Item.Meta
                title={row.merchantName}
                description={`${t("providers.list.merchantId")}: ${row.merchantId}`}
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  );
}

/**
 * A provider's page inside a brand (spec 01 §6; FaceValueCardP, DiscountCardP, BrandAuthorizationP):
 * with `?sellerBrand=<id>` and a live brand token in this tab, `children` run with their own query cache
 * (so nothing read with the brand token mixes with the provider's own data) and their brand calls carry
 * the brand token; without a token the page says why and leads back to the brands.
 */
export function BrandContext({ hint, children }: { hint: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const branderId = params.get("sellerBrand");
  const raw = useSyncExternalStore(subscribeBrandGrants, () => (branderId ? brandGrantSnapshot(branderId) : null));
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } } }),
  );

  if (!branderId) {
    return (
      <Flex vertical gap={16}>
        {hint}
        <ChooseBrand />
      </Flex>
    );
  }
  const state = parseBrandGrant(raw);
  if (state.kind !== "active") {
    return <BrandGrantMissing ended={state.kind === "ended"} />;
  }
  const { grant } = state;
  const leave = () => {
    dropBrandGrant(grant.branderId);
    void navigate(pathname);
  };
  return (
    <Flex vertical gap={16}>
      <Alert
        type="warning"
        showIcon
        title={t("providers.brand.context", { name: grant.name, id: grant.branderId })}
        description={t("providers.brand.expiresAt", { time: formatTime(grant.expiresAt) })}
        action={<Button onClick={leave}>{t("providers.brand.leave")}</Button>}
        data-testid="brand-context"
      />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </Flex>
  );
}
