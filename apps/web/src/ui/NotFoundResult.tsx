import { Button, Flex, Result } from "antd";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** The 404 result, shared by the not-found page and the route error boundary. */
export function NotFoundResult() {
  const { t } = useTranslation();
  return (
    <Flex justify="center" style={{ padding: "64px 16px" }}>
      <Result
        status="404"
        title={t("notFound.title")}
        subTitle={t("notFound.body")}
        extra={
          <Link to="/">
            <Button type="primary">{t("notFound.home")}</Button>
          </Link>
        }
      />
    </Flex>
  );
}
