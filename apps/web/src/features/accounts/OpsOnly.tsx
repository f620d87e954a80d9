import { Button, Result } from "antd";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useUserInfo } from "../../api/common";

/** The console is for platform operators: a merchant's session sees a 403 with the way back. */
export function OpsOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { data: info } = useUserInfo();
  if (info && info.kind !== "operator") {
    return (
      <Result
        status="403"
        title={t("ops.forbiddenTitle")}
        subTitle={t("ops.forbiddenBody")}
        extra={
          <Link to="/ops/login">
            <Button type="primary">{t("ops.login.title")}</Button>
          </Link>
        }
      />
    );
  }
  return <>{children}</>;
}
