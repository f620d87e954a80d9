import type { Lang, MallOrder } from "@tessera/contracts";
import type { Executor } from "../../db/tx";
import { phonesOf } from "../onecard";
import { sealedCodes, type CardKeys } from "../supply";
import * as checkout from "./checkout.repo";
import { deliveryExpiry, iso, money, renderKey, type DeliveryRow, type OrderRow, type DeliveredCode } from "./shared";

/** Orders as the API shows them, read with their deliveries, codes and customers' phones. */
export async function presentOrders(
  db: Executor,
  keys: CardKeys,
  rows: OrderRow[],
  reveal: boolean,
  lang: Lang,
): Promise<MallOrder[]> {
  if (rows.length === 0) return [];
  const deliveries = await checkout.deliveriesOf(
    db,
    rows.map((r) => r.id),
  );
  const codes = await sealedCodes(
    db,
    deliveries.flatMap((d) => (d.card_id === null ? [] : [d.card_id])),
  );
  const phones = new Map(
    (
      await phonesOf(
        db,
        rows.map((r) => r.customer_id),
      )
    ).map((p) => [p.id, p.phone]),
  );
  return shapeOrders(keys, rows, deliveries, codes, phones, reveal, lang);
}

/** Orders as the API shows them, from their rows, their deliveries (in id order), the codes delivered and the customers' phones. */
export function shapeOrders(
  keys: CardKeys,
  rows: OrderRow[],
  deliveries: DeliveryRow[],
  sealed: DeliveredCode[],
  phones: Map<number, string>,
  reveal: boolean,
  lang: Lang,
): MallOrder[] {
  const codes = new Map(sealed.map((c) => [c.id, c]));
  return rows.map((r) => ({
    id: String(r.id),
    orderNo: r.order_no,
    appId: r.app_id,
    customerPhone: reveal
      ? (phones.get(r.customer_id) ?? "")
      : (phones.get(r.customer_id) ?? "").replace(/^(\d{3})\d{4}(\d{4})$/, "$1****$2"),
    state: r.state,
    payMethod: r.pay_method,
    amount: money(r.amount, r.currency),
    lines: r.lines.map((l) => ({
      kind: l.kind,
      refId: String(l.refId),
      name: l.name,
      quantity: l.quantity,
      unitPrice: money(l.unitPrice, r.currency),
    })),
    deliveries: deliveries
      .filter((d) => d.order_id === r.id)
      .map((d) => {
        const c = d.card_id === null ? undefined : codes.get(d.card_id);
        const open = c && reveal ? keys.unseal(c.sealed) : undefined;
        return {
          id: String(d.id),
          name: d.name,
          kind: d.kind,
          state: d.state,
          cardNumber: c ? (open?.number ?? c.number_mask) : null,
          cardSecret: c ? (open?.secret ?? "******") : null,
          account: d.account,
          expiresAt: deliveryExpiry(d.expires_at, c),
          usedAt: c?.redeemed_at ? iso(c.redeemed_at) : null,
          smartPurchase: false,
        };
      }),
    topUpAccount: r.top_up_account,
    failReason:
      r.fail_reason === null
        ? null
        : r.fail_reason.startsWith("mall.") || r.fail_reason.includes(".")
          ? renderKey(r.fail_reason, lang)
          : r.fail_reason,
    refundReason: r.refund_reason,
    createdAt: iso(r.created_at),
    refundedAt: r.refunded_at ? iso(r.refunded_at) : null,
  }));
}
