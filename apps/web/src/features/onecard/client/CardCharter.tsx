import { Card, Descriptions, Result, Typography } from "antd";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { OcProduct } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { Shell } from "../../customer/Shell";
import { validityText } from "../labels";
import { fmt } from "./format";

/**
 * `/CardCharterPage?id=<product>` (public, the spec's card purchase charter): what a card product is before
 * someone buys it — who issues it, its face value and price, how long it lasts, whether it carries a name,
 * where it can be used and its terms — and where to go next (the brand's stores, the balance query).
 * The brand's card product list links here.
 */
export default function CardCharter() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = params.get("id") ?? "";
  const product = useQuery({
    queryKey: ["onecard", "charter", id],
    enabled: /^\d+$/.test(id),
    queryFn: async () => {
      const r = await customerCall<OcProduct>("GET", `/api/card-public/onecard/charter/${id}`, { toast: false });
      return r.ok ? r.data : null;
    },
  });
  const p = product.data;
  return (
    <Shell title={t("onecard.title.charter")} needsLogin={false} tabs={false}>
      {!p ? (
        !product.isLoading && (
          <Result
            status="info"
            title={t("onecard.charter.notFound")}
            subTitle={t("onecard.charter.notFoundHint")}
            extra={<Link to="/oneCardQuery">{t("onecard.charter.query")}</Link>}
          />
        )
      ) : (
        <>
          <Card data-testid="charter">
            <Typography.Text type="secondary">{p.branderName}</Typography.Text>
            <Typography.Title level={4} style={{ marginTop: 4 }}>
              {p.name}
            </Typography.Title>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t("onecard.faceValue")}>{fmt(p.faceValue)}</Descriptions.Item>
              <Descriptions.Item label={t("onecard.bo.salePrice")}>
                <strong>{fmt(p.salePrice)}</strong>
              </Descriptions.Item>
              <Descriptions.Item label={t("onecard.bo.validity")}>{validityText(t, p.validity)}</Descriptions.Item>
              <Descriptions.Item label={t("onecard.charter.holder")}>
                {p.named ? t("onecard.charter.named") : t("onecard.charter.bearer")}
              </Descriptions.Item>
              <Descriptions.Item label={t("onecard.bo.rechargeAllowed")}>
                {p.rechargeAllowed ? t("onecard.charter.yes") : t("onecard.charter.no")}
              </Descriptions.Item>
              <Descriptions.Item label={t("onecard.bo.scope")}>
                {p.scope || t("onecard.charter.allStores", { brand: p.branderName })}
              </Descriptions.Item>
            </Descriptions>
          </Card>
          {p.terms && (
            <Card title={t("onecard.bo.terms")} style={{ marginTop: 12 }}>
              <Typography.Paragraph style={{ whiteSpace: "pre-wrap", marginBottom: 0 }}>{p.terms}</Typography.Paragraph>
            </Card>
          )}
          <Card style={{ marginTop: 12 }} data-testid="charter-next">
            <Typography.Paragraph style={{ marginBottom: 8 }}>
              {p.onSale ? t("onecard.charter.howToBuy", { brand: p.branderName }) : t("onecard.charter.offSale")}
            </Typography.Paragraph>
            <Link to="/oneCardQuery">{t("onecard.charter.query")}</Link>
          </Card>
        </>
      )}
    </Shell>
  );
}
