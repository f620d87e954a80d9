import { at, judged, type Op } from "./operations";
import { uniq, type World } from "./world";

/**
 * The physical-goods (commerce) operations (operations.ts describes them all): an order placed and paid,
 * acted on in or out of its turn, and an after-sales case applied for and disposed of.
 */
export type CommerceOp = Extract<Op, { op: "goodsOrder" | "goodsAct" | "goodsAftersale" }>;

/** Performs one physical-goods operation (perform's share of them). */
export async function performCommerceOp(w: World, o: CommerceOp): Promise<string> {
  const { t } = w;
  const db = t.ctx.database.db;
  const supplier = w.supplier;
  switch (o.op) {
    case "goodsOrder": {
      const p = w.purchasers[o.who] ?? w.purchasers[0];
      if (!p) throw new Error("no purchaser");
      const r = await judged(w, "goods order", () =>
        t.call<{ id: string }>("POST", "/api/card-user/commerce/orders", {
          token: p.token,
          body: {
            items: o.items.map((i) => ({ skuId: w.physical.skus[i.sku]?.id ?? "0", quantity: i.quantity })),
            consignee: w.physical.consignee,
            requestKey: uniq("GO"),
          },
        }),
      );
      if (r.outcome !== "done") return "goodsOrder:refused";
      w.made.goodsOrders.push({ id: r.data.id, purchaser: o.who });
      if (!o.pay) return "goodsOrder:done";
      const paid = await judged(w, "goods pay", () =>
        t.call("POST", `/api/card-user/commerce/orders/${r.data.id}/pay`, { token: p.token }),
      );
      return `goodsPay:${paid.outcome}`;
    }
    case "goodsAct": {
      const order = at(w.made.goodsOrders, o.pick);
      if (!order) return "goodsAct:nothing";
      const p = w.purchasers[order.purchaser];
      if (!p) throw new Error("no purchaser");
      const state = (
        await db
          .selectFrom("commerce_orders")
          .select("state")
          .where("id", "=", Number(order.id))
          .executeTakeFirstOrThrow()
      ).state;
      const next = { to_pay: "pay", to_ship: "ship", shipped: "confirm", received: "confirm" } as Record<
        string,
        "pay" | "ship" | "confirm" | undefined
      >;
      const action = o.action === "advance" ? (next[state] ?? "confirm") : o.action;
      const allowed = {
        pay: ["to_pay"],
        ship: ["to_ship"],
        confirm: ["shipped", "received"],
        cancel: ["to_pay", "to_ship"],
      }[action];
      const send =
        action === "ship"
          ? () =>
              t.call("POST", "/api/ecommerce/order/express/create", {
                token: supplier.token,
                body: { orderId: order.id, companyCode: "shunfeng" },
              })
          : () =>
              t.call("POST", `/api/card-user/commerce/orders/${order.id}/${action}`, {
                token: p.token,
                ...(action === "cancel" && { body: { reason: "changed my mind" } }),
              });
      // What the order's state decides: an action out of its turn is refused.
      const r = await judged(w, `goods ${action} (${state})`, send, allowed.includes(state) ? undefined : "refused");
      return `goods.${action}:${r.outcome}`;
    }
    case "goodsAftersale": {
      // Among the orders paid and not closed when there are any (a case needs one), else any order.
      const paid = new Set(
        (
          await db
            .selectFrom("commerce_orders")
            .select("id")
            .where("brand_id", "=", Number(supplier.merchantId))
            .where("state", "in", ["to_ship", "shipped", "received", "completed"])
            .execute()
        ).map((x) => String(x.id)),
      );
      const live = w.made.goodsOrders.filter((x) => paid.has(x.id));
      const order = at(live.length > 0 ? live : w.made.goodsOrders, o.pick);
      if (!order) return "goodsAftersale:nothing";
      const p = w.purchasers[order.purchaser];
      if (!p) throw new Error("no purchaser");
      const seen = await t.call<{
        freight: { amount: number };
        items: { id: string; quantity: number; unitPrice: { amount: number }; amount: { amount: number } }[];
      }>("GET", `/api/card-user/commerce/orders/${order.id}`, { token: p.token });
      const item = at(seen.body.data.items, o.line);
      if (!item) return "goodsAftersale:nothing";
      // "over": more than the line and the freight together, which no case may refund.
      const amount =
        o.amount === "over"
          ? item.amount.amount + seen.body.data.freight.amount + 1
          : o.amount === "whole"
            ? item.unitPrice.amount * o.quantity
            : Math.max(1, Math.floor((item.unitPrice.amount * o.quantity) / 2));
      const applied = await judged(
        w,
        `after-sales ${o.way} of ${o.quantity} for ${amount}`,
        () =>
          t.call<{ id: string }>("POST", "/api/card-user/commerce/aftersales", {
            token: p.token,
            body: {
              orderItemId: item.id,
              way: o.way,
              quantity: o.quantity,
              amount,
              reason: "Not as described",
              requestKey: uniq("AS"),
            },
          }),
        o.amount === "over" ? "refused" : undefined,
      );
      if (applied.outcome !== "done") return "goodsAftersale:refused";
      const dispose = (body: Record<string, unknown>) => () =>
        t.call("POST", "/api/ecommerce/afterservice/dispose", {
          token: supplier.token,
          body: { id: applied.data.id, ...body },
        });
      if (!o.agree) {
        const no = await judged(w, "after-sales declined", dispose({ action: "disagree", reason: "Used" }), "done");
        return `goodsAftersale.disagree:${no.outcome}`;
      }
      if (o.way === "refund") {
        const yes = await judged(w, "after-sales refund", dispose({ action: "agree" }));
        return `goodsAftersale.refund:${yes.outcome}`;
      }
      const agreed = await judged(
        w,
        "after-sales return agreed",
        dispose({ action: "agree", returnAddress: "Noodle House returns, 1 West Lake Road" }),
        "done",
      );
      void agreed;
      await judged(
        w,
        "after-sales goods sent back",
        () =>
          t.call("POST", `/api/card-user/commerce/aftersales/${applied.data.id}/ship`, {
            token: p.token,
            body: { companyCode: "zhongtong", waybillNo: uniq("ZT") },
          }),
        "done",
      );
      const received = await judged(w, "after-sales goods received", dispose({ action: "receive" }));
      return `goodsAftersale.return:${received.outcome}`;
    }
  }
}
