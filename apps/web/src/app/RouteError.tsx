import { Button, Flex, Result } from "antd";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { NotFoundResult } from "../ui/NotFoundResult";
import { isChunkLoadError } from "./lazy";

/**
 * What a page shows when it cannot be shown. A page whose script or style chunk failed to load
 * (spec 01 §8 "client load errors") gets a clear message and a Reload button; anything else is
 * reported as a page error.
 */
export function PageFailure({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const reload = (
    <Button type="primary" key="reload" onClick={() => window.location.reload()}>
      {t("error.reload")}
    </Button>
  );
  if (isChunkLoadError(error)) {
    return (
      <Flex justify="center" style={{ padding: "64px 16px" }}>
        <Result status="warning" title={t("error.chunkTitle")} subTitle={t("error.chunkBody")} extra={[reload]} />
      </Flex>
    );
  }
  const detail = error instanceof Error ? error.message : isRouteErrorResponse(error) ? error.statusText : "";
  return (
    <Flex justify="center" style={{ padding: "64px 16px" }}>
      <Result
        status="error"
        title={t("error.pageTitle")}
        subTitle={detail || t("error.pageBody")}
        extra={[
          reload,
          <Link key="home" to="/">
            <Button>{t("notFound.home")}</Button>
          </Link>,
        ]}
      />
    </Flex>
  );
}

/** Route error boundary (errors thrown while rendering a page). */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundResult />;
  return <PageFailure error={error} />;
}
