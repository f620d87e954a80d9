import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { Alert, Button, Flex } from "antd";
import { useState, useSyncExternalStore, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useNavigate, useSearchParams } from "react-router";
import { loginPathOf } from "../../api/area";
import { brandGrantSnapshot, dropBrandGrant, parseBrandGrant, subscribeBrandGrants } from "../../api/brandTokens";
import { useSession } from "../../api/common";
import { RealNameForm } from "./RealNameForm";
import { BRANDS_LIST, BrandGrantMissing } from "./BrandContext";
import { formatTime } from "../../ui/time";

function Frame({ children }: { children: ReactNode }) {
  return (
    <Flex vertical gap={16} style={{ width: "100%", maxWidth: 1280, margin: "0 auto", padding: 24 }}>
      {children}
    </Flex>
  );
}

/**
 * A brand's real-name verification, done by its service provider with the brand token. The page has
 * its own query cache, so nothing read with the brand token mixes with the provider's own data.
 */
function BrandRealName({ branderId }: { branderId: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = useSyncExternalStore(subscribeBrandGrants, () => brandGrantSnapshot(branderId));
  const state = parseBrandGrant(raw);
  const [client] = useState(
    () => new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false } } }),
  );

  if (state.kind !== "active") {
    return <BrandGrantMissing ended={state.kind === "ended"} />;
  }
  const { grant } = state;
  const leave = () => {
    dropBrandGrant(branderId);
    void navigate(BRANDS_LIST);
  };
  return (
    <Frame>
      <Alert
        type="warning"
        showIcon
        title={t("providers.brand.context", { name: grant.name, id: grant.branderId })}
        description={t("providers.brand.expiresAt", { time: formatTime(grant.expiresAt) })}
        action={<Button onClick={leave}>{t("providers.brand.leave")}</Button>}
        data-testid="brand-context"
      />
      <QueryClientProvider client={client}>
        <RealNameForm pageId="RealNamePage.brand" brandContext />
      </QueryClientProvider>
    </Frame>
  );
}

/**
 * `/RealNamePage` (spec 01 §2, public): real-name verification. With `sellerBrand=<id>` it is that
 * brand's, acted on by its service provider with the brand token; without it, the signed-in merchant's own.
 */
export default function RealNamePage() {
  const [params] = useSearchParams();
  const { token, version } = useSession();
  const sellerBrand = params.get("sellerBrand");
  if (sellerBrand !== null) return <BrandRealName key={sellerBrand} branderId={sellerBrand} />;
  if (!token) return <Navigate to={loginPathOf(version)} replace />;
  return (
    <Frame>
      <RealNameForm pageId="RealNamePage" />
    </Frame>
  );
}
