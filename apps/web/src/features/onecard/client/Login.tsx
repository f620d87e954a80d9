import { useQuery } from "@tanstack/react-query";
import { Alert } from "antd";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import type { TakeoutMenu } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { CustomerLoginForm } from "./CustomerLoginForm";
import { Shell } from "../../customer/Shell";

/**
 * `/client/login`: the end customer logs in with a phone number and an SMS code (no password). Sent here from a
 * takeout shop (`back=/takeout/<shop>`), it names the shop and says the order waits there (issue 40, item 2).
 */
export default function Login() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const shopId = /^\/takeout\/(\d+)$/.exec(params.get("back") ?? "")?.[1];
  const shop = useQuery({
    queryKey: ["takeout-menu", shopId],
    enabled: shopId !== undefined,
    queryFn: async () => {
      const r = await customerCall<TakeoutMenu>("GET", `/api/mall/takeout/shops/${shopId}`, { toast: false });
      return r.ok ? r.data.shop.name : null;
    },
  });
  const shopName = shop.data ?? null;
  return (
    <Shell
      title={shopName ? t("onecard.loginFor", { shop: shopName }) : t("onecard.title.login")}
      needsLogin={false}
      tabs={false}
    >
      {shopName && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t("onecard.loginBackTo", { shop: shopName })}
          data-testid="login-shop"
        />
      )}
      <CustomerLoginForm
        sendCode={(phone) =>
          customerCall<{ resendIn: number }>("POST", "/api/mall/customer/sendSms", { body: { phone } })
        }
        next={(back) => (back?.startsWith("/") ? back : "/client/cardBag")}
      />
    </Shell>
  );
}
