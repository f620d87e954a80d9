import { sql } from "kysely";
import { platformDay } from "../platform/clock";
import { at, judged, StepFailure, type Op } from "./operations";
import { uniq, type World } from "./world";

/**
 * The operations at the brand's stores (operations.ts describes them all): a code redeemed at a store, the
 * stores' settlement, and a clerk's redemption of an amount off a customer's one-card card.
 */
export type StoreOp = Extract<Op, { op: "redeem" | "settle" | "cardRedeem" }>;

/** Performs one store operation (perform's share of them). */
export async function performStoreOp(w: World, o: StoreOp): Promise<string> {
  const { t } = w;
  const db = t.ctx.database.db;
  const supplier = w.supplier;
  switch (o.op) {
    case "redeem": {
      const code = at(w.made.codes, o.pick);
      if (!code) return "redeem:nothing";
      const c = await db
        .selectFrom("supply_cards")
        .select(["state", "redeemed_at", sql<string | null>`to_char(expires_on, 'YYYY-MM-DD')`.as("expires")])
        .where("id", "=", code.cardId)
        .executeTakeFirstOrThrow();
      // What the code's state decides: a sold, unredeemed, unexpired code is served; any other is refused.
      const redeemable =
        c.state === "sold" && c.redeemed_at === null && (c.expires === null || c.expires >= platformDay(t.clock.now()));
      const r = await judged(
        w,
        `redeem code ${code.cardId} (${c.state}${c.redeemed_at ? ", redeemed" : ""})`,
        () =>
          t.call("POST", "/api/card-brander/writeOff/redeem", {
            token: supplier.token,
            body: {
              kind: "coupon",
              code: code.number,
              secret: code.secret,
              storeId: w.storeId,
              requestKey: uniq("RD"),
            },
          }),
        redeemable ? "done" : "refused",
      );
      return `redeem:${r.outcome}`;
    }
    case "settle": {
      const r = await judged(
        w,
        "settle",
        () => t.call("POST", "/api/ops/stores/settle", { token: w.opA.token, body: {} }),
        "done",
      );
      return `settle:${r.outcome}`;
    }
    case "cardRedeem": {
      // A clerk takes an amount off a customer's card at the brand's store, with the dynamic code the
      // customer's card bag shows: more than the card holds is refused.
      const cards = await db
        .selectFrom("onecard_cards")
        .select(["id", "customer_id", "state", "balance", "held"])
        .where("product_id", "=", Number(w.cardProductId))
        .where("customer_id", "is not", null)
        .orderBy("id")
        .execute();
      const card = at(cards, o.pick);
      const c = card && w.customers.find((x) => x.id === Number(card.customer_id));
      if (!card || !c) return "cardRedeem:nothing";
      const issued = await t.call<{ code: string }>("POST", `/api/mall/onecard/cards/${card.id}/dynamicCode`, {
        headers: { "x-customer-token": c.token },
      });
      if (issued.status >= 500) throw new StepFailure(`dynamic code: ${issued.status} ${issued.body.msg}`);
      if (issued.body.code !== 1) return "cardRedeem:nocode";
      const short = o.amount > Number(card.balance) - Number(card.held) || card.state !== "activated";
      const r = await judged(
        w,
        `card redemption of ${o.amount} (${card.state}, ${card.balance} held ${card.held})`,
        () =>
          t.call("POST", "/api/card-brander/writeOff/redeem", {
            token: w.clerk,
            body: { kind: "dynamic", code: issued.body.data.code, amount: o.amount, requestKey: uniq("CD") },
          }),
        short ? "refused" : "done",
      );
      return `cardRedeem:${r.outcome}`;
    }
  }
}
