import type { OcOrder, Page } from "@tessera/contracts";
import { formatTime } from "../../../../ui/time";
import { customerSession } from "../../../../api/customerCall";
import { useLoad } from "../../../mall/storefront/useLoad";
import { fmt } from "../format";
import type { BagPageProps } from "./BagApp";
import { Empty, Shell } from "./Shell";
import { customerCall, useTexts } from "./texts";

/** `/client/orderList`: equities the customer paid for with a card. */
export default function Orders({ onLang }: BagPageProps) {
  const { t } = useTexts();
  // Without a token the Shell sends the visitor to the login: nothing to ask the server.
  const signedIn = { enabled: Boolean(customerSession.token()) };
  const q = useLoad(
    "orders",
    async () => {
      const r = await customerCall<Page<OcOrder>>("GET", "/api/mall/onecard/orders?pageSize=100");
      return r.ok ? r.data.list : [];
    },
    signedIn,
  );
  return (
    <Shell title={t("onecard.title.orders")} onLang={onLang}>
      {q.data?.length === 0 && <Empty />}
      <ul className="cb-list">
        {q.data?.map((o) => (
          <li key={o.id} className="cb-list-item">
            <div className="cb-ellipsis-box">
              <strong>
                {o.equity} <span className={`cb-tag cb-order-${o.state}`}>{t(`onecard.order.${o.state}`)}</span>
              </strong>
              <div className="cb-muted">
                {[`${t("onecard.account")}: ${o.account}`, o.cardNo, formatTime(o.createdAt), o.failReason]
                  .filter(Boolean)
                  .join(" · ")}
              </div>
            </div>
            <strong className="cb-right">{fmt(o.amount)}</strong>
          </li>
        ))}
      </ul>
    </Shell>
  );
}
