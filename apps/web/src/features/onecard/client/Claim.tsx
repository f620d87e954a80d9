import { GiftOutlined } from "@ant-design/icons";
import { useQuery } from "@tanstack/react-query";
import { Button, Card, Flex, Result, Spin, Typography } from "antd";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import type { OcBagReply, OcGiftPreview } from "@tessera/contracts";
import { customerCall, customerSession, CUSTOMER_LOGIN_PATH } from "../../customer/customerApi";
import { Shell } from "../../customer/Shell";
import { day, fmt } from "./format";

/**
 * `/client/claim?token=…`: a gift's link, sent by SMS or shared (issue 40, item 3). Before anything else it shows
 * who sent how many cards worth how much, with their message; then the recipient logs in (and comes back here)
 * and claims it into the card bag. A link works once; a gift sent to a phone is claimed only by that phone.
 */
export default function Claim() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const location = useLocation();
  const token = params.get("token") ?? "";
  const loggedIn = Boolean(customerSession.token());
  const preview = useQuery({
    queryKey: ["onecard", "gift-preview", token],
    queryFn: async () => {
      const r = await customerCall<OcGiftPreview>(
        "GET",
        `/api/card-public/onecard/gifts/preview?token=${encodeURIComponent(token)}`,
        { toast: false },
      );
      return r.ok ? r.data : { refused: r.msg };
    },
  });
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; msg: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const claim = async () => {
    setBusy(true);
    const r = await customerCall<OcBagReply>("POST", "/api/mall/onecard/gifts/claimByLink", {
      body: { token },
      toast: false,
    });
    setBusy(false);
    if (r.ok || r.code !== 1007) setOutcome(r.ok ? { ok: true } : { ok: false, msg: r.msg });
  };
  const g = preview.data;
  const back = encodeURIComponent(location.pathname + location.search);
  return (
    <Shell title={t("onecard.title.claim")} tabs={false} needsLogin={false}>
      {!g && <Spin />}
      {g && "refused" in g && <Result status="warning" title={g.refused} />}
      {outcome ? (
        <Result
          status={outcome.ok ? "success" : "warning"}
          title={<span data-testid="claim-result">{outcome.ok ? t("onecard.claimed") : outcome.msg}</span>}
          extra={
            <Link to="/client/cardBag">
              <Button type="primary">{t("onecard.title.cardBag")}</Button>
            </Link>
          }
        />
      ) : (
        g &&
        !("refused" in g) && (
          <Card data-testid="gift-landing">
            <Flex vertical align="center" gap={8} style={{ textAlign: "center" }}>
              <GiftOutlined style={{ fontSize: 40, color: "#fa541c" }} />
              <Typography.Title level={4} style={{ margin: 0 }}>
                {t("onecard.giftFrom", { name: g.from, count: g.count })}
              </Typography.Title>
              <Typography.Text strong style={{ fontSize: 22 }} data-testid="gift-amount">
                {fmt(g.amount)}
              </Typography.Text>
              {g.message && (
                <Typography.Paragraph italic style={{ margin: 0 }} data-testid="gift-message">
                  “{g.message}”
                </Typography.Paragraph>
              )}
              {g.state === "open" ? (
                <>
                  <Typography.Text type="secondary">
                    {t("onecard.claimBefore", { date: day(g.expiresAt) })}
                  </Typography.Text>
                  {loggedIn ? (
                    <Button type="primary" size="large" block loading={busy} onClick={() => void claim()}>
                      {t("onecard.claim")}
                    </Button>
                  ) : (
                    <Link to={`${CUSTOMER_LOGIN_PATH}?back=${back}`} style={{ width: "100%" }}>
                      <Button type="primary" size="large" block data-testid="gift-login">
                        {t("onecard.claimLogin")}
                      </Button>
                    </Link>
                  )}
                </>
              ) : (
                <Typography.Text type="warning" data-testid="gift-state">
                  {t(g.state === "claimed" ? "onecard.giftAlreadyClaimed" : "onecard.giftLinkExpired")}
                </Typography.Text>
              )}
            </Flex>
          </Card>
        )
      )}
    </Shell>
  );
}
