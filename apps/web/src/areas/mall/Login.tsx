import { useTranslation } from "react-i18next";
import { CustomerLoginForm } from "../client/CustomerLoginForm";
import { mallCall } from "./mallApi";
import { MallShell, themeOf, useAppId } from "./MallShell";

/**
 * `/mall/:appId/login`: the customer logs in by phone and SMS code; the code is sent by this mall (and
 * counted against its SMS packages), the login is the card bag's (one customer account).
 */
export default function MallLogin() {
  const { t } = useTranslation();
  const appId = useAppId();
  const home = `/mall/${encodeURIComponent(appId)}`;
  return (
    <MallShell title={t("mall.login")}>
      {(sf) => (
        <CustomerLoginForm
          sendCode={(phone) => mallCall<{ resendIn: number }>(appId, "POST", "/customer/sendSms", { body: { phone } })}
          next={(back) => (back?.startsWith("/mall/") ? back : home)}
          primary={themeOf(sf).primary}
        />
      )}
    </MallShell>
  );
}
