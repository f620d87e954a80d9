import { useTranslation } from "react-i18next";
import type { MallOrder, Page } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { Empty, mallBase, Spinner, type PageProps } from "./MallApp";
import { mallCall } from "./mallApi";
import { Link } from "./router";
import { useLoad } from "./useLoad";

/** A state's tag class: the colours the back-office's order list gives the same states. */
export const STATE_TAG: Record<MallOrder["state"], string> = {
  paid: "m-tag-blue",
  delivering: "m-tag-blue",
  delivered: "m-tag-green",
  failed: "m-tag-red",
  refunded: "",
};

/** `/mall/:appId/orders`: the customer's orders in this mall. */
export default function MallOrders({ appId }: PageProps) {
  const { t } = useTranslation();
  const orders = useLoad(`orders:${appId}`, async () => {
    const r = await mallCall<Page<MallOrder>>(appId, "GET", "/orders?pageSize=50");
    return r.ok ? r.data.list : [];
  });
  return (
    <div className="m-stack">
      {orders.loading && !orders.data && <Spinner />}
      {orders.data?.length === 0 && <Empty text={t("noOrders")} />}
      {orders.data?.map((o) => (
        <Link key={o.id} to={`${mallBase(appId)}/orders/${o.id}`} className="m-card" data-testid="mall-order">
          <div className="m-between">
            <span className="m-muted">{o.orderNo}</span>
            <span className={`m-tag ${STATE_TAG[o.state]}`}>{t(`state.${o.state}`)}</span>
          </div>
          <div>{o.lines.map((l) => `${l.name} ×${l.quantity}`).join("、")}</div>
          <strong>{formatMoney(o.amount)}</strong>
        </Link>
      ))}
    </div>
  );
}
