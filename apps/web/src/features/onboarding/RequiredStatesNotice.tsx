import { Alert, Button } from "antd";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { useUserInfo } from "../../api/common";
import { realNamePathFor } from "./realNamePath";

/**
 * Why docking, purchase applications and orders would be refused (spec 01 §6, held by the server): shown
 * while the merchant is not real-name verified, with a link to its area's verification page; and, with
 * `market`, the one-market rule (a merchant docks only with merchants of its version and currency).
 */
export function RequiredStatesNotice({ market = false }: { market?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { data: info } = useUserInfo();
  const m = info?.merchant;
  if (!m) return null;
  const target = realNamePathFor(pathname);
  const unverified = m.realNameState !== "verified";
  return (
    <>
      {unverified && (
        <Alert
          type="warning"
          showIcon
          data-testid="required-states"
          style={{ marginBottom: 12 }}
          title={t(
            m.realNameState === "expired" ? "onboarding.realName.requiredExpired" : "onboarding.realName.required",
          )}
          action={
            target && (
              <Link to={target}>
                <Button size="small" type="primary">
                  {t("onboarding.realName.goVerify")}
                </Button>
              </Link>
            )
          }
        />
      )}
      {market && (
        <Alert
          type="info"
          showIcon
          data-testid="market-rule"
          style={{ marginBottom: 12 }}
          title={t("onboarding.realName.market", { currency: t(`currency.${m.currency}`) })}
        />
      )}
    </>
  );
}
