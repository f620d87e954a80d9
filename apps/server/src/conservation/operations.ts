import { COMMERCE_LIMITS } from "@tessera/contracts";
import fc from "fast-check";
import type { CallResult } from "../../test/harness";
import { refundExpiredVouchers } from "../modules/purchasing/voucher-expiry";
import { voucherExpiryDeps } from "../../test/kit/mall-fixtures";
import { cardKeys } from "../modules/supply";
import { SupplyService } from "../modules/supply/service";
import { TakeoutService } from "../modules/takeout/service";
import { CommerceService } from "../modules/commerce/service";
import type { Database } from "../db/database";
import { fingerprint } from "./invariants";
import { performCardOp } from "./operations-cards";
import { performCommerceOp } from "./operations-commerce";
import { performStoreOp } from "./operations-stores";
import { refreshCustomers, uniq, type World } from "./world";

/**
 * The money operations of a conservation run, as plain descriptors (so fast-check can generate, print and
 * shrink them) and the code that performs one through the HTTP API. What an operation acts on (an order, a
 * code, a withdrawal) is `pick`, taken modulo what the world has made so far, so a shrunk sequence still
 * runs. Many generated operations are invalid in the state they meet (a refund of a redeemed voucher, a
 * withdrawal above the balance, a review out of order): they must be refused with a 4xx and change nothing.
 */
export type Op =
  | { op: "purchase"; who: number; goods: "secret" | "voucher"; quantity: number }
  | { op: "purchaseRefund"; pick: number; quantity: number; approve: boolean }
  | { op: "mallBuy"; who: number; item: "secret" | "voucher"; quantity: number }
  | { op: "mallRefund"; pick: number }
  | { op: "takeoutOrder"; who: number; pay: boolean }
  | {
      op: "takeoutAct";
      pick: number;
      action: "advance" | "pay" | "accept" | "deliver" | "complete" | "cancel" | "customerCancel";
    }
  | { op: "collect"; amount: number }
  | { op: "collectRefund"; pick: number; amount: number }
  | { op: "redeem"; pick: number }
  | { op: "settle" }
  | { op: "withdraw"; amount: number; account: "income" | "reserve" | "sandbox_income" }
  | {
      op: "review";
      pick: number;
      action: "advance" | "firstReview" | "secondReview" | "markPaid" | "markFailed" | "reject";
    }
  | { op: "payout" }
  | { op: "cardBuy"; who: number; quantity: number }
  | { op: "cardActivate"; pick: number }
  | { op: "cardReturn"; pick: number }
  | { op: "cardGift"; pick: number; who: number }
  | { op: "cardRedeem"; pick: number; amount: number }
  | { op: "goodsOrder"; who: number; items: { sku: number; quantity: number }[]; pay: boolean }
  | { op: "goodsAct"; pick: number; action: "advance" | "pay" | "ship" | "confirm" | "cancel" }
  | {
      op: "goodsAftersale";
      pick: number;
      line: number;
      way: "refund" | "return_and_refund";
      quantity: number;
      amount: "whole" | "part" | "over";
      agree: boolean;
    }
  | { op: "daily" };

const who = fc.integer({ min: 0, max: 1 });
const pick = fc.nat({ max: 1_000 });

/** The operations, weighted towards those that make things for the others to act on. */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("purchase" as const),
      who,
      goods: fc.constantFrom("secret" as const, "voucher" as const),
      quantity: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("purchaseRefund" as const),
      pick,
      quantity: fc.integer({ min: 1, max: 3 }),
      approve: fc.boolean(),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("mallBuy" as const),
      who,
      item: fc.constantFrom("secret" as const, "voucher" as const),
      quantity: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("mallRefund" as const), pick }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("takeoutOrder" as const), who, pay: fc.boolean() }) },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant("takeoutAct" as const),
      pick,
      action: fc.constantFrom(
        "advance" as const,
        "advance" as const,
        "pay" as const,
        "accept" as const,
        "deliver" as const,
        "complete" as const,
        "cancel" as const,
        "customerCancel" as const,
      ),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant("collect" as const), amount: fc.integer({ min: 1, max: 30_000 }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("collectRefund" as const),
      pick,
      amount: fc.integer({ min: 1, max: 30_000 }),
    }),
  },
  { weight: 6, arbitrary: fc.record({ op: fc.constant("redeem" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("settle" as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("withdraw" as const),
      amount: fc.integer({ min: 1, max: 40_000 }),
      account: fc.constantFrom("income" as const, "income" as const, "reserve" as const, "sandbox_income" as const),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("review" as const),
      pick,
      action: fc.constantFrom(
        "advance" as const,
        "advance" as const,
        "firstReview" as const,
        "secondReview" as const,
        "markPaid" as const,
        "markFailed" as const,
        "reject" as const,
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("payout" as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({ op: fc.constant("cardBuy" as const), who, quantity: fc.integer({ min: 1, max: 3 }) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("cardActivate" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("cardReturn" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("cardGift" as const), pick, who }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("cardRedeem" as const),
      pick,
      amount: fc.oneof(fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 1, max: 12_000 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant("goodsOrder" as const),
      who,
      items: fc.uniqueArray(
        fc.record({ sku: fc.integer({ min: 0, max: 1 }), quantity: fc.integer({ min: 1, max: 3 }) }),
        { minLength: 1, maxLength: 2, selector: (i) => i.sku },
      ),
      pay: fc.boolean(),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("goodsAct" as const),
      pick,
      action: fc.constantFrom(
        "advance" as const,
        "advance" as const,
        "pay" as const,
        "ship" as const,
        "confirm" as const,
        "cancel" as const,
      ),
    }),
  },
  {
    // Heavier, and agreed two times in three: a case needs a paid order and a quantity bought, and a return
    // goes through three steps, so fewer cases would leave a short run without a finished return.
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant("goodsAftersale" as const),
      pick,
      line: fc.integer({ min: 0, max: 1 }),
      way: fc.constantFrom("refund" as const, "return_and_refund" as const),
      quantity: fc.integer({ min: 1, max: 3 }),
      amount: fc.constantFrom("whole" as const, "whole" as const, "part" as const, "over" as const),
      agree: fc.constantFrom(true, true, false),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("daily" as const) }) },
);

/** How one HTTP call of an operation ended. */
export type Outcome = "done" | "refused";

export class StepFailure extends Error {}

export const at = <T>(list: readonly T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

/**
 * Sends one call and judges it: done (2xx, code 1), or refused (4xx), in which case the world's
 * fingerprint must be what it was. A 5xx, or a refusal that changed something, fails the step. `mustBe`
 * says what the state before the call already decides. The fingerprint before a call is the one a refusal
 * just verified when nothing ran since (`w.unchanged`), else read anew; a call that must be done needs
 * none (a refusal fails it anyway).
 */
export async function judged<T>(
  w: World,
  what: string,
  send: () => Promise<CallResult<T>>,
  mustBe?: Outcome,
): Promise<{ outcome: Outcome; data: T }> {
  // Operations running side by side change the world under each other: then only the status is judged.
  const alone = !w.concurrent;
  const before = alone && mustBe !== "done" ? (w.unchanged ?? (await fingerprint(w))) : undefined;
  w.unchanged = undefined;
  const res = await send();
  if (res.status >= 500 || res.status < 200) throw new StepFailure(`${what}: ${res.status} ${res.body.msg}`);
  const outcome: Outcome = res.status < 300 && res.body.code === 1 ? "done" : "refused";
  if (alone && mustBe && outcome !== mustBe) {
    throw new StepFailure(
      `${what}: ${outcome} (${res.status} ${res.body.msg}) but the state before said it must be ${mustBe}`,
    );
  }
  if (outcome === "refused") {
    if (res.status < 400) throw new StepFailure(`${what}: refused with ${res.status} (${res.body.msg}), not a 4xx`);
    if (before !== undefined) {
      const after = await fingerprint(w);
      if (after !== before) {
        throw new StepFailure(`${what}: refused (${res.status} ${res.body.msg}) but changed the books or the goods`);
      }
      w.unchanged = after;
    }
  }
  return { outcome, data: res.body.data };
}

const balance = async (w: World, merchantId: string, kind: string): Promise<number> => {
  const r = await w.t.ctx.database.db
    .selectFrom("ledger_accounts")
    .select("balance")
    .where("merchant_id", "=", Number(merchantId))
    .where("kind", "=", kind)
    .executeTakeFirst();
  return Number(r?.balance ?? 0);
};

/** Performs one operation. Returns a one-word summary of how its last call ended (for the run's tally). */
export async function perform(w: World, o: Op): Promise<string> {
  const { t } = w;
  const db = t.ctx.database.db;
  const supplier = w.supplier;
  switch (o.op) {
    case "purchase": {
      const p = w.purchasers[o.who] ?? w.purchasers[0];
      if (!p) throw new Error("no purchaser");
      const goodsId = o.goods === "secret" ? w.goods.secret : w.goods.voucher;
      const r = await judged(w, "purchase", () =>
        t.call<{ id: string }>("POST", "/api/card-user/orders", {
          token: p.token,
          body: { goodsId: String(goodsId), quantity: o.quantity, orderNo: uniq("CO") },
        }),
      );
      if (r.outcome === "done") {
        w.made.purchaseOrders.push({ id: r.data.id, purchaser: o.who });
        const list = await t.call<{ list: { id: string }[] }>(
          "GET",
          `/api/card-user/purchasedCards?orderId=${r.data.id}&pageSize=50`,
          { token: p.token },
        );
        const revealed = await t.call<{ id: number; cardNumber: string; cardSecret: string }[]>(
          "POST",
          "/api/card-user/purchasedCards/reveal",
          { token: p.token, body: { ids: list.body.data.list.map((c) => c.id) } },
        );
        for (const c of revealed.body.data) {
          w.made.codes.push({ cardId: c.id, number: c.cardNumber, secret: c.cardSecret });
        }
      }
      return `purchase:${r.outcome}`;
    }
    case "purchaseRefund": {
      const order = at(w.made.purchaseOrders, o.pick);
      if (!order) return "purchaseRefund:nothing";
      const p = w.purchasers[order.purchaser];
      if (!p) throw new Error("no purchaser");
      const asked = await judged(w, "refund request", () =>
        t.call<{ id: string }>("POST", "/api/card-user/refunds", {
          token: p.token,
          body: { orderId: order.id, quantity: o.quantity, reason: "not needed" },
        }),
      );
      if (asked.outcome !== "done") return "purchaseRefund:refused";
      // The supplier's decision. A refusal for want of income marks the request abnormal (no money moves).
      const decided = await judged(w, "refund decision", () =>
        t.call("PUT", `/api/card-brander/supplyRefunds/${asked.data.id}`, {
          token: supplier.token,
          body: o.approve ? { approve: true } : { approve: false, reason: "used" },
        }),
      );
      return `purchaseRefund:${decided.outcome}`;
    }
    case "mallBuy": {
      const c = w.customers[o.who] ?? w.customers[0];
      if (!c) throw new Error("no customer");
      const self = o.item === "secret" ? w.shop.self.secret : w.shop.self.voucher;
      const r = await judged(w, "mall checkout", () =>
        t.call<{ id: string; deliveries: { cardNumber: string | null; cardSecret: string | null }[] }>(
          "POST",
          "/api/mall/shop/checkout",
          {
            headers: c.mall,
            body: {
              lines: [{ kind: "goods", id: self, quantity: o.quantity }],
              payMethod: "wallet",
              requestKey: uniq("MK"),
            },
          },
        ),
      );
      if (r.outcome === "done") {
        w.made.mallOrders.push(r.data.id);
        const rows = await db
          .selectFrom("mall_deliveries")
          .select("card_id")
          .where("order_id", "=", Number(r.data.id))
          .orderBy("id")
          .execute();
        for (const [i, d] of r.data.deliveries.entries()) {
          const cardId = rows[i]?.card_id;
          if (cardId !== null && cardId !== undefined && d.cardNumber && d.cardSecret) {
            w.made.codes.push({ cardId: Number(cardId), number: d.cardNumber, secret: d.cardSecret });
          }
        }
      }
      return `mallBuy:${r.outcome}`;
    }
    case "mallRefund": {
      const id = at(w.made.mallOrders, o.pick);
      if (!id) return "mallRefund:nothing";
      const before = await db
        .selectFrom("mall_orders")
        .select("state")
        .where("id", "=", Number(id))
        .executeTakeFirstOrThrow();
      const owner = w.purchasers[0];
      if (!owner) throw new Error("no mall owner");
      // A refunded order cannot be refunded again (a new request key: not a replay).
      const r = await judged(
        w,
        "mall refund",
        () =>
          t.call("POST", `/api/card-user/mall/orders/${id}/refund`, {
            token: owner.token,
            body: { reason: "Customer asked", requestKey: uniq("MR") },
          }),
        before.state === "refunded" ? "refused" : undefined,
      );
      return `mallRefund:${r.outcome}`;
    }
    case "takeoutOrder": {
      const c = w.customers[o.who] ?? w.customers[0];
      if (!c) throw new Error("no customer");
      const r = await judged(w, "takeout order", () =>
        t.call<{ id: string }>("POST", "/api/mall/takeout/orders", {
          headers: { "x-customer-token": c.token },
          body: {
            merchantId: supplier.merchantId,
            lines: [{ kind: "package", id: w.takeout.combo, quantity: 1 }],
            contactName: "Han Meimei",
            contactPhone: "13900139000",
            address: "Wensan Road 9",
            lat: 30.28,
            lng: 120.16,
            tableware: 1,
            requestKey: uniq("TK"),
          },
        }),
      );
      if (r.outcome !== "done") return "takeoutOrder:refused";
      w.made.takeoutOrders.push({ id: r.data.id, customer: o.who });
      if (!o.pay) return "takeoutOrder:done";
      const paid = await judged(w, "takeout pay", () =>
        t.call("POST", `/api/mall/takeout/orders/${r.data.id}/pay`, { headers: { "x-customer-token": c.token } }),
      );
      return `takeoutPay:${paid.outcome}`;
    }
    case "takeoutAct": {
      // "advance" moves on one of the orders furthest along when there are orders under way (else any), so
      // that orders do reach their end in a short run; the other actions take any order, final ones
      // included, to be refused.
      const order =
        o.action === "advance"
          ? (at(await furthestTakeoutOrders(db, w.made.takeoutOrders), o.pick) ?? at(w.made.takeoutOrders, o.pick))
          : at(w.made.takeoutOrders, o.pick);
      if (!order) return "takeoutAct:nothing";
      const c = w.customers[order.customer];
      if (!c) throw new Error("no customer");
      const headers = { "x-customer-token": c.token };
      // "advance": the order's next step in the happy path, so that whole journeys happen, not only refusals.
      const state = (
        await db
          .selectFrom("takeout_orders")
          .select("state")
          .where("id", "=", Number(order.id))
          .executeTakeFirstOrThrow()
      ).state;
      const next = {
        pending_payment: "pay",
        to_be_accepted: "accept",
        accepted: "deliver",
        delivering: "complete",
      } as Record<string, "pay" | "accept" | "deliver" | "complete" | undefined>;
      const action = o.action === "advance" ? (next[state] ?? "complete") : o.action;
      const send =
        action === "pay"
          ? () => t.call("POST", `/api/mall/takeout/orders/${order.id}/pay`, { headers })
          : action === "customerCancel"
            ? () =>
                t.call("POST", `/api/mall/takeout/orders/${order.id}/cancel`, {
                  headers,
                  body: { reason: "changed my mind" },
                })
            : () =>
                t.call("POST", `/api/card-brander/takeout/orders/${order.id}/action`, {
                  token: supplier.token,
                  body: action === "cancel" ? { action: "cancel", reason: "sold out" } : { action },
                });
      const r = await judged(w, `takeout ${action} (${state})`, send);
      return `takeout.${action}:${r.outcome}`;
    }
    case "collect": {
      const r = await judged(w, "payer-page pay", () =>
        t.call<{ id: string }>("POST", `/api/pay-public/codes/${w.payToken}/pay`, {
          body: { amount: o.amount, requestKey: uniq("PP") },
        }),
      );
      if (r.outcome === "done") w.made.payOrders.push(r.data.id);
      return `collect:${r.outcome}`;
    }
    case "collectRefund": {
      const id = at(w.made.payOrders, o.pick);
      if (!id) return "collectRefund:nothing";
      const before = await db
        .selectFrom("pay_orders")
        .select(["amount", "refunded"])
        .where("id", "=", Number(id))
        .executeTakeFirstOrThrow();
      const tooMuch = o.amount > Number(before.amount) - Number(before.refunded);
      const r = await judged(
        w,
        "collection refund",
        () =>
          t.call<{ state: string }>("POST", "/api/card-brander/paymentRefunds", {
            token: supplier.token,
            body: { orderId: id, amount: o.amount, requestKey: uniq("PR") },
          }),
        tooMuch ? "refused" : undefined,
      );
      return `collectRefund:${r.outcome}${r.outcome === "done" ? `.${r.data.state}` : ""}`;
    }
    case "redeem":
    case "settle":
    case "cardRedeem":
      return performStoreOp(w, o);
    case "withdraw": {
      // Sandbox income is not an account a withdrawal may draw from; more than the balance is refused.
      const short = o.account === "sandbox_income" || o.amount > (await balance(w, supplier.merchantId, o.account));
      const r = await judged(
        w,
        `withdraw ${o.amount} from ${o.account}`,
        () =>
          t.call<{ id: string }>("POST", "/api/card-brander/withdraws", {
            token: supplier.token,
            body: { amount: o.amount, account: o.account, requestKey: uniq("WD") },
          }),
        short ? "refused" : undefined,
      );
      if (r.outcome === "done") w.made.withdrawals.push(r.data.id);
      return `withdraw:${r.outcome}`;
    }
    case "review": {
      // Automatic payouts are withdrawals too: pick among every withdrawal of the brand.
      const ids = (
        await db
          .selectFrom("withdrawals")
          .select("id")
          .where("merchant_id", "=", Number(supplier.merchantId))
          .orderBy("id")
          .execute()
      ).map((x) => String(x.id));
      const id = at(ids, o.pick);
      if (!id) return "review:nothing";
      // "advance": the withdrawal's next step towards being paid, so that payouts happen, not only refusals.
      const state = (
        await db.selectFrom("withdrawals").select("state").where("id", "=", Number(id)).executeTakeFirstOrThrow()
      ).state;
      const next = {
        under_review: "firstReview",
        first_review_passed: "secondReview",
        bank_paying: "markPaid",
      } as Record<string, "firstReview" | "secondReview" | "markPaid" | undefined>;
      const action = o.action === "advance" ? (next[state] ?? "markPaid") : o.action;
      const op = action === "secondReview" ? w.opB : w.opA;
      const r = await judged(w, `withdrawal ${action} (${state})`, () =>
        t.call("POST", `/api/ops/withdrawals/${id}/action`, {
          token: op.token,
          body: { action, ...((action === "reject" || action === "markFailed") && { reason: "bank said no" }) },
        }),
      );
      return `review.${action}:${r.outcome}`;
    }
    case "payout": {
      const r = await judged(
        w,
        "T+1 payout",
        () => t.call("POST", "/api/ops/withdrawals/autoPayout", { token: w.opA.token, body: {} }),
        "done",
      );
      return `payout:${r.outcome}`;
    }
    case "cardBuy":
    case "cardActivate":
    case "cardReturn":
    case "cardGift":
      return performCardOp(w, o);
    case "goodsOrder":
    case "goodsAct":
    case "goodsAftersale":
      return performCommerceOp(w, o);
    case "daily": {
      // A platform day passes: the daily jobs run as their schedules would (card expiry, refunds of expired
      // vouchers, unpaid takeout orders closed, the store settlement of yesterday).
      t.clock.advance(86_400);
      w.unchanged = undefined;
      const deps = { db, clock: t.clock };
      await new SupplyService({ ...deps, keys: cardKeys(t.ctx.secret), mailer: t.ctx.mailer }).expireDue();
      await refundExpiredVouchers(voucherExpiryDeps(t));
      await new TakeoutService({ ...deps, payments: t.ctx.payments }).closeUnpaid();
      // Physical goods: the courier simulator's events of the day (signed: received), unpaid orders closed,
      // shipped ones confirmed after the configured days.
      const commerce = new CommerceService({
        ...deps,
        courier: t.ctx.courier.adapter,
        config: {
          autoConfirmDays: t.config.commerce.autoConfirmDays,
          courierStepSeconds: t.config.commerce.courierStepSeconds,
          pushSalt: t.ctx.courier.pushSalt,
        },
        checkVideo: () => Promise.resolve(),
      });
      await commerce.runCourierSimulator();
      await commerce.runTimers(COMMERCE_LIMITS.unpaidCloseMinutes);
      await judged(
        w,
        "daily settlement",
        () => t.call("POST", "/api/ops/stores/settle", { token: w.opA.token, body: {} }),
        "done",
      );
      await refreshCustomers(w);
      return "daily:done";
    }
  }
}

/** The takeout orders under way that are furthest along the happy path (delivering before accepted, ...). */
async function furthestTakeoutOrders<T extends { id: string }>(db: Database["db"], made: T[]): Promise<T[]> {
  const path = ["pending_payment", "to_be_accepted", "accepted", "delivering"] as const;
  const rows = await db.selectFrom("takeout_orders").select(["id", "state"]).where("state", "in", path).execute();
  const states = new Map(rows.map((x) => [String(x.id), (path as readonly string[]).indexOf(x.state)]));
  const step = Math.max(-1, ...made.map((x) => states.get(x.id) ?? -1));
  return made.filter((x) => states.get(x.id) === step);
}
