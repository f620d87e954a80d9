import { Button, Result, Spin } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import type { OcBagReply } from "@tessera/contracts";
import { customerCall } from "../../customer/customerApi";
import { Shell } from "../../customer/Shell";

/**
 * `/client/claim?token=…`: a gift sent by link. Opening it claims the gift into the customer's card bag
 * (a customer not logged in goes to the login and comes back here); a link works once.
 */
export default function Claim() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [outcome, setOutcome] = useState<{ ok: true } | { ok: false; msg: string } | null>(null);
  useEffect(() => {
    let live = true;
    void customerCall<OcBagReply>("POST", "/api/mall/onecard/gifts/claimByLink", {
      body: { token },
      toast: false,
    }).then((r) => {
      if (live && (r.ok || r.code !== 1007)) setOutcome(r.ok ? { ok: true } : { ok: false, msg: r.msg });
    });
    return () => {
      live = false;
    };
  }, [token]);
  return (
    <Shell title={t("onecard.title.claim")} tabs={false}>
      {outcome === null && <Spin />}
      {outcome && (
        <Result
          status={outcome.ok ? "success" : "warning"}
          title={<span data-testid="claim-result">{outcome.ok ? t("onecard.claimed") : outcome.msg}</span>}
          extra={
            <Link to="/client/cardBag">
              <Button type="primary">{t("onecard.title.cardBag")}</Button>
            </Link>
          }
        />
      )}
    </Shell>
  );
}
