import { useQuery } from "@tanstack/react-query";
import { Card, Flex, Typography } from "antd";
import { useTranslation } from "react-i18next";
import type { MallBagCode } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { day } from "./format";

/** The codes the customer bought in the mini-program malls (one request, shared by whoever asks). */
export function useMallBagCodes() {
  return useQuery({
    queryKey: ["mall", "bag-codes"],
    queryFn: async () => {
      const r = await customerCall<{ list: MallBagCode[] }>("GET", "/api/mall/codes");
      return r.ok ? r.data.list : [];
    },
  });
}

/**
 * The card bag's mall codes: the coupons and card secrets the customer bought in the mini-program malls
 * (masked; each opens its order's page in its mall, which reveals the code to its buyer).
 */
export function MallBagCodes() {
  const { t } = useTranslation();
  const codes = useMallBagCodes();
  if (!codes.data?.length) return null;
  return (
    <Card size="small" title={t("mall.bagCodes.title")} data-testid="bag-mall-codes">
      <Flex vertical gap={8}>
        {codes.data.map((c) => (
          // The storefront is its own page (mall.html): a full page load, not a client-side navigation.
          <a
            key={c.deliveryId}
            href={`/mall/${encodeURIComponent(c.appId)}/orders/${c.orderId}`}
            style={{ color: "inherit" }}
          >
            <Flex
              justify="space-between"
              align="center"
              gap={8}
              style={{ padding: "6px 0", borderBottom: "1px solid #f0f0f0" }}
            >
              <div style={{ minWidth: 0 }}>
                <Typography.Text strong ellipsis style={{ display: "block" }}>
                  {c.name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {c.mallName} · {c.cardNumber}
                </Typography.Text>
              </div>
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: "nowrap" }}>
                {c.usedAt
                  ? t("mall.bagCodes.used", { date: day(c.usedAt) })
                  : c.expiresAt
                    ? t("mall.bagCodes.until", { date: day(c.expiresAt) })
                    : t("mall.bagCodes.open")}
              </Typography.Text>
            </Flex>
          </a>
        ))}
      </Flex>
    </Card>
  );
}
