import type { OcMove, Page } from "@tessera/contracts";
import { formatTime } from "../../../../ui/time";
import { customerSession } from "../../../../api/customerCall";
import { useLoad } from "../../../mall/storefront/useLoad";
import { fmt } from "../format";
import type { BagPageProps } from "./BagApp";
import { Empty, Shell } from "./Shell";
import { customerCall, useTexts } from "./texts";

/** `/client/equityChange`: every change of the balances of the customer's cards, newest first, with the balance after it. */
export default function Changes({ onLang }: BagPageProps) {
  const { t } = useTexts();
  // Without a token the Shell sends the visitor to the login: nothing to ask the server.
  const signedIn = { enabled: Boolean(customerSession.token()) };
  const q = useLoad(
    "moves",
    async () => {
      const r = await customerCall<Page<OcMove>>("GET", "/api/mall/onecard/moves?pageSize=100");
      return r.ok ? r.data.list : [];
    },
    signedIn,
  );
  return (
    <Shell title={t("onecard.title.changes")} onLang={onLang}>
      {q.data?.length === 0 && <Empty />}
      <ul className="cb-list">
        {q.data?.map((m) => (
          <li key={m.id} className="cb-list-item">
            <div className="cb-ellipsis-box">
              <strong>{`${t(`onecard.move.${m.kind}`)} · ${m.note || m.cardNo}`}</strong>
              <div className="cb-muted">{`${m.cardNo} · ${formatTime(m.createdAt)}`}</div>
            </div>
            <div className="cb-right">
              <strong className={m.amount.amount < 0 ? "cb-danger" : "cb-success"}>
                {m.amount.amount > 0 ? "+" : ""}
                {fmt(m.amount)}
              </strong>
              <div className="cb-muted cb-small">{t("onecard.balanceAfter", { v: fmt(m.balanceAfter) })}</div>
            </div>
          </li>
        ))}
      </ul>
    </Shell>
  );
}
