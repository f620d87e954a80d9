import { createHash } from "node:crypto";
import {
  CODE,
  paidOnRedemption,
  type FulfilReq,
  type MessageKey,
  type Money,
  type OrderQuery,
  type OrderReportQuery,
  type OrderReportRow,
  type OrderReq,
  type Page,
  type PurchaseOrder,
  topUpAccountProblem,
} from "@tessera/contracts";
import { sql } from "kysely";
import { withTx, type Executor, type Tx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { platformDay } from "../../platform/clock";
import { AppError, conflict, forbidden, invalid } from "../../platform/http/errors";
import { toPurchasableGoods } from "../catalog";
import { post, postingPart } from "../ledger";
import { getMerchant, merchantOfActor, type MerchantRow } from "../merchants";
import { allocationPart } from "../supply";
import * as ordersRepo from "./orders.repo";
import * as refundsRepo from "./refunds.repo";
import * as repo from "./repo";
import type { OrderResult, PurchasingDeps } from "./service";
import { pageWindow } from "../../db/paginate";

/** The result of an order about to be inserted as final (codes from stock, finished at `now`). */
function orderResult(o: ordersRepo.NewOrder & { id: number }, now: Date): OrderResult {
  return {
    id: String(o.id),
    orderNo: o.orderNo,
    goodsId: String(o.goodsId),
    quantity: o.quantity,
    amount: { amount: o.amount, currency: o.currency },
    state: o.state,
    upstreamChannelId: null,
    failReason: null,
    refunded: false,
    finishedAt: now.toISOString(),
  };
}

/** The reasons an order's statement refuses itself with (see the parts), as the errors they answer. */
const REFUSALS: Partial<Record<string, MessageKey>> = {
  "supply.outOfStock": "supply.outOfStock",
  "supply.goodsNotAvailable": "supply.goodsNotAvailable",
  "ledger.insufficientBalance": "ledger.insufficientBalance",
};

export const orderNotFound = () => new AppError(CODE.NOT_FOUND, "order.notFound");

/**
 * Purchase orders: placing (checks, then one statement: the order, the ledger movement and, for goods
 * sold from stock, the allocation of exactly the ordered codes), fulfilling a direct top-up (escrow to the
 * supplier or back to the purchaser, once), listing, the report and the exports.
 */
export class OrdersService {
  constructor(private readonly deps: PurchasingDeps) {}

  private merchantOf(actor: Actor): Promise<MerchantRow> {
    return merchantOfActor(this.deps.db, actor);
  }

  /**
   * Places an order. Checks first (goods, docking, quantity, top-up account), then one transaction:
   * the order, the ledger movement, and for stock goods the codes. Short stock or balance fails the
   * whole transaction: no order, no money moved. The same order number returns the first order.
   */
  async order(actor: Actor, req: OrderReq): Promise<PurchaseOrder> {
    if (actor.merchantId === null) throw forbidden();
    return this.orderFor(actor.merchantId, actor.userId, req);
  }

  /** An order through the open API: signed by the purchaser's app key, no user behind it. */
  async orderByApi(purchaserId: number, req: OrderReq): Promise<PurchaseOrder> {
    return this.orderFor(purchaserId, null, req);
  }

  /**
   * An order placed for a purchaser by someone acting on its behalf (a service provider's BatchPurchase,
   * issue 29): the same checks, payment and idempotency (the order number) as the purchaser's own order.
   * The caller has checked that it may act for this purchaser; `userId` is who placed it.
   */
  async orderOnBehalf(purchaserId: number, userId: number, req: OrderReq): Promise<PurchaseOrder> {
    return this.orderFor(purchaserId, userId, req);
  }

  /** The purchaser's order by its own order number (the open API's order query). */
  async orderByNo(purchaserId: number, orderNo: string): Promise<PurchaseOrder> {
    const row = await ordersRepo.findOrderByNo(this.deps.db, purchaserId, orderNo);
    if (!row) throw orderNotFound();
    return this.presentOrder(row);
  }

  /**
   * What an order on behalf of a purchaser would cost, without placing it (BatchPurchase shows the total
   * before anything is spent, issue 37): the same checks as the order, refused the same way; an order
   * already placed under this number is a replay, which spends nothing again. The balance is not checked:
   * the order itself refuses a short one.
   */
  async quoteOnBehalf(purchaserId: number, req: OrderReq): Promise<{ amount: Money; replay: boolean }> {
    const checked = await this.checkOrder(purchaserId, req, false);
    if (checked.kind === "replay") return { amount: (await checked.replay()).amount, replay: true };
    return { amount: { amount: checked.amount, currency: checked.goods.currency }, replay: false };
  }

  /**
   * An order's checks, in the order they refuse: its facts in one read (the purchaser, an earlier order
   * under this number, the goods, whether the purchaser may buy it and at which price), then each rule.
   * An earlier order under the number answers instead (`replay`).
   */
  private async checkOrder(purchaserId: number, req: OrderReq, drawId = true) {
    const paidFrom = req.payFrom ?? "sup";
    // The paying account is part of the request only when it is not the default, so orders placed
    // before it existed keep their digests.
    const digest = createHash("sha256")
      .update(
        JSON.stringify([
          req.goodsId,
          req.quantity,
          req.topUpAccount ?? null,
          ...(paidFrom === "sup" ? [] : [paidFrom]),
        ]),
      )
      .digest("hex");
    const facts = await ordersRepo.orderFacts(this.deps.db, {
      purchaserId,
      goodsId: Number(req.goodsId),
      orderNo: req.orderNo,
      day: platformDay(this.deps.clock.now()),
      drawId,
    });
    if (!facts) throw forbidden();
    const purchaser = facts.purchaser;
    const existing = facts.existing;
    if (existing) {
      return { kind: "replay" as const, replay: () => this.replay(purchaserId, req.orderNo, existing.digest, digest) };
    }
    if (purchaser.realNameState !== "verified") throw conflict("order.realNameRequired");

    const goods = facts.goods ? toPurchasableGoods(facts.goods) : undefined;
    const inScope = goods && (goods.salesScope === "all" || goods.salesScope === purchaser.version);
    if (!goods || !goods.available || !inScope || goods.supplierMerchantId === purchaser.id) {
      throw conflict("order.goodsUnavailable", "goodsId");
    }
    if (goods.currency !== purchaser.currency) throw invalid("order.currencyMismatch", "goodsId");
    if (req.quantity > goods.perOrderMax) {
      throw new AppError(CODE.INVALID_PARAMETER, "order.overPerOrderMax", { max: goods.perOrderMax }, "quantity");
    }
    if (!goods.fromStock && !req.topUpAccount) throw invalid("order.topUpAccountEmpty", "topUpAccount");
    // The account as its goods' type requires (a mobile number, a QQ number, ...), before anything is spent.
    const accountProblem = goods.fromStock ? null : topUpAccountProblem(goods.topUpAccountType, req.topUpAccount ?? "");
    if (accountProblem) throw invalid(accountProblem, "topUpAccount");
    if (!facts.mayBuy) throw conflict("docking.notDocked", "goodsId");
    // An approved purchase application sets this purchaser's own price (its secret price first).
    const unitPrice = facts.agreedPrice ?? goods.price;
    const amount = unitPrice * req.quantity;
    if (!Number.isSafeInteger(amount)) throw invalid("order.quantityInvalid", "quantity");
    return { kind: "new" as const, facts, purchaser, goods, unitPrice, amount, digest, paidFrom };
  }

  private async orderFor(purchaserId: number, userId: number | null, req: OrderReq): Promise<PurchaseOrder> {
    const checked = await this.checkOrder(purchaserId, req);
    if (checked.kind === "replay") return checked.replay();
    const { facts, purchaser, goods, unitPrice, amount, digest, paidFrom } = checked;

    const now = this.deps.clock.now();
    const names = { purchaser: purchaser.name, supplier: facts.supplierName };
    // Store vouchers pay the supplier when they are used: until then the money waits in the escrow.
    const heldUntilRedeemed = goods.fromStock && paidOnRedemption(goods.businessType);
    const newOrder: ordersRepo.NewOrder & { id: number } = {
      id: facts.nextId,
      orderNo: req.orderNo,
      purchaserId: purchaser.id,
      supplierId: goods.supplierMerchantId,
      goodsId: goods.id,
      goodsName: goods.name,
      businessType: goods.businessType,
      quantity: req.quantity,
      unitPrice,
      faceValue: goods.faceValue,
      amount,
      currency: goods.currency,
      state: goods.fromStock ? "success" : "processing",
      topUpAccount: goods.fromStock ? null : (req.topUpAccount ?? null),
      paidFrom,
      heldUntilRedeemed,
      digest,
      createdBy: userId,
      // Codes from stock are handed over with the order: it is finished when its statement commits.
      ...(goods.fromStock && { finishedAt: now }),
    };
    // The other modules' shares of the order's one statement: for a stock order (final as inserted) its
    // result callback and its codes, then the ledger movement. The contended rows (the goods' stock, the
    // supplier's income) are written last, and every order writes them in the same order.
    const resultStatement = goods.fromStock ? this.deps.orderResultStatement : undefined;
    const callback: ordersRepo.OrderPart | undefined = resultStatement && {
      ctes: (inserted) => sql`order_result AS (${resultStatement(purchaser.id, orderResult(newOrder, now), inserted)})`,
    };
    const cards = goods.fromStock
      ? allocationPart(
          {
            goodsId: goods.id,
            quantity: req.quantity,
            orderId: String(newOrder.id),
            buyerMerchantId: purchaser.id,
            goods: {
              merchantId: goods.supplierMerchantId,
              name: goods.name,
              perOrderMax: goods.perOrderMax,
              cardStock: true,
            },
          },
          now,
        )
      : undefined;
    const payment = postingPart({
      idempotencyKey: `order:${newOrder.id}`,
      kind: "purchase",
      currency: goods.currency,
      reason: `${req.orderNo} ${goods.name}`,
      subject: { type: "purchase_order", id: newOrder.id },
      createdBy: userId,
      postings: [
        { account: { merchantId: purchaser.id, kind: paidFrom }, amount: -amount },
        goods.fromStock && !heldUntilRedeemed
          ? { account: { merchantId: goods.supplierMerchantId, kind: "income" }, amount }
          : { account: { platform: "order_escrow" }, amount },
      ],
    });
    const audit = {
      actorUserId: userId,
      detail: { goodsId: goods.id, quantity: req.quantity, amount, byApi: userId === null, paidFrom },
    };
    const placed = await this.place(newOrder, audit, [callback, cards, payment], payment, paidFrom);
    const order = placed?.order;
    const lowStock = placed && cards ? cards.outcome(placed.results[1]).lowStock : null;
    if (placed && typeof payment.outcome(placed.results[2]) === "string") {
      throw new Error("order: the ledger part should have refused the statement");
    }
    if (lowStock) await this.deps.onLowStock(lowStock);
    if (order) return this.presentOrder(order, this.deps.db, names);
    // The number was taken meanwhile (the same order sent twice at once): the first order answers.
    const row = await ordersRepo.findOrderByNo(this.deps.db, purchaser.id, req.orderNo);
    if (!row) throw new Error("the order must exist after its transaction");
    return this.replay(purchaser.id, req.orderNo, row.request_digest, digest, row);
  }

  /**
   * Runs an order's one statement (ordersRepo.placeOrder): a refusal becomes its AppError; a ledger account
   * not used yet is created and the statement run again; a deadlock is retried like withTx would.
   */
  private async place(
    order: ordersRepo.NewOrder & { id: number },
    audit: { actorUserId: number | null; detail: Record<string, unknown> },
    parts: (ordersRepo.OrderPart | undefined)[],
    payment: { prepare(tx: Tx): Promise<void> },
    paidFrom: "sup" | "rebate",
  ): Promise<{ order: ordersRepo.OrderRow; results: unknown[] } | undefined> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await ordersRepo.placeOrder(this.deps.db, order, audit, parts);
      } catch (err) {
        const code = typeof err === "object" && err !== null && "code" in err ? err.code : undefined;
        const reason = code === ordersRepo.REFUSED && err instanceof Error ? err.message : undefined;
        if (reason === "ledger.notWritten" && attempt === 1) {
          await withTx(this.deps.db, (tx) => payment.prepare(tx));
          continue;
        }
        // Only the paying account is debited: short of money, it is the rebate account when that pays.
        const refusal =
          reason === "ledger.insufficientBalance" && paidFrom === "rebate"
            ? "order.rebateInsufficient"
            : reason === undefined
              ? undefined
              : REFUSALS[reason];
        if (refusal) throw new AppError(CODE.CONFLICT, refusal);
        if (attempt < 3 && (code === "40P01" || code === "40001")) continue;
        throw err;
      }
    }
  }

  /** Hands a finished order to the result hook, read inside the transaction that finished it. */
  private async announce(tx: Tx, id: number, purchaserId: number): Promise<void> {
    await this.deps.onOrderResult?.(tx, purchaserId, async () => {
      const row = await ordersRepo.findOrder(tx, id);
      if (!row) throw orderNotFound();
      return this.presentOrder(row, tx);
    });
  }

  /** The purchaser's earlier order under this number, if it was placed with the same request. */
  private async replay(
    purchaserId: number,
    orderNo: string,
    firstDigest: string,
    digest: string,
    row?: ordersRepo.OrderRow,
  ): Promise<PurchaseOrder> {
    if (firstDigest !== digest) throw conflict("order.orderNoReused", "orderNo");
    const existing = row ?? (await ordersRepo.findOrderByNo(this.deps.db, purchaserId, orderNo));
    if (!existing) throw orderNotFound();
    return this.presentOrder(existing);
  }

  /**
   * The supplier reports a direct top-up: success pays the escrowed money to the supplier, failure
   * returns it to the purchaser (the order is refunded). Once: a settled order refuses a second report.
   */
  async fulfil(actor: Actor, id: number, req: FulfilReq): Promise<PurchaseOrder> {
    const supplier = await this.merchantOf(actor);
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const o = await ordersRepo.lockOrder(tx, id);
      if (!o || o.supplier_merchant_id !== supplier.id) throw orderNotFound();
      if (o.state !== "processing") throw conflict("order.notProcessing");
      const success = req.result === "success";
      await post(tx, {
        idempotencyKey: `order-${success ? "settle" : "refund"}:${id}`,
        kind: success ? "purchase" : "refund",
        currency: o.currency,
        reason: success ? `${o.order_no} ${o.goods_name}` : `${o.order_no} ${req.reason}`,
        subject: { type: "purchase_order", id },
        createdBy: actor.userId,
        postings: [
          { account: { platform: "order_escrow" }, amount: -o.amount },
          success
            ? { account: { merchantId: o.supplier_merchant_id, kind: "income" }, amount: o.amount }
            : { account: { merchantId: o.purchaser_merchant_id, kind: o.paid_from }, amount: o.amount },
        ],
      });
      await ordersRepo.finishOrder(
        tx,
        id,
        success
          ? { state: "success", upstreamChannelId: req.upstreamChannelId, at: now }
          : { state: "failure", failReason: req.reason, refunded: true, at: now },
      );
      if (!success) {
        // The automatic refund shows in the refund orders like any other.
        await refundsRepo.insertRefund(tx, {
          orderId: id,
          purchaserId: o.purchaser_merchant_id,
          supplierId: o.supplier_merchant_id,
          quantity: o.quantity,
          amount: o.amount,
          currency: o.currency,
          reason: req.reason,
          state: "success",
          requestedBy: null,
          at: now,
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: `order.${req.result}`,
        subjectType: "purchase_order",
        subjectId: id,
      });
      await this.announce(tx, id, o.purchaser_merchant_id);
    });
    const row = await ordersRepo.findOrder(this.deps.db, id);
    if (!row) throw orderNotFound();
    return this.presentOrder(row);
  }

  async orders(actor: Actor, q: OrderQuery, side: "purchaser" | "supplier"): Promise<Page<PurchaseOrder>> {
    const me = await this.merchantOf(actor);
    const counterpart = q.counterpartId === undefined ? undefined : Number(q.counterpartId);
    const { rows, total } = await ordersRepo.orderPage(this.deps.db, {
      ...(side === "purchaser"
        ? { purchaserId: me.id, supplierId: counterpart }
        : { supplierId: me.id, purchaserId: counterpart }),
      from: q.from,
      to: q.to,
      state: q.state,
      orderNo: q.orderNo,
      goodsId: q.goodsId !== undefined ? Number(q.goodsId) : undefined,
      ...pageWindow(q),
    });
    const list: PurchaseOrder[] = [];
    for (const r of rows) list.push(await this.presentOrder(r));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  /** `GET supplyOrders/{orderId}`: one order for its supplier or its purchaser. */
  async orderOf(actor: Actor, id: number): Promise<PurchaseOrder> {
    const me = await this.merchantOf(actor);
    const row = await ordersRepo.findOrder(this.deps.db, id);
    if (!row || (row.supplier_merchant_id !== me.id && row.purchaser_merchant_id !== me.id)) throw orderNotFound();
    return this.presentOrder(row);
  }

  /** Purchase or refund report by day, week or month and supplier (the purchase orders screen's tabs). */
  async report(actor: Actor, q: OrderReportQuery, side: "purchaser" | "supplier"): Promise<OrderReportRow[]> {
    const me = await this.merchantOf(actor);
    const rows = await repo.reportRows(this.deps.db, {
      merchantId: me.id,
      side,
      kind: q.kind,
      unit: q.unit,
      from: q.from,
      to: q.to,
    });
    const names = new Map<number, string>();
    for (const id of new Set(rows.map((r) => Number(r.supplier_id)))) {
      names.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    }
    return rows.map((r) => ({
      period: r.period,
      supplierId: String(r.supplier_id),
      supplierName: names.get(Number(r.supplier_id)) ?? "",
      orders: Number(r.orders),
      quantity: Number(r.quantity),
      faceAmount: Number(r.face),
      amount: Number(r.amount),
      currency: r.currency as OrderReportRow["currency"],
      accountType: "sup",
    }));
  }

  /* ---------- exports (every order list as xlsx, in pages of 1000) ---------- */

  async *orderBatches(actor: Actor, q: OrderQuery, side: "purchaser" | "supplier"): AsyncGenerator<PurchaseOrder[]> {
    for (let page = 1; ; page += 1) {
      const { list } = await this.orders(actor, { ...q, page, pageSize: 1000 }, side);
      if (list.length > 0) yield list;
      if (list.length < 1000) return;
    }
  }

  /** `names`: the purchaser's and the supplier's names when the caller knows them already. */
  private async presentOrder(
    r: ordersRepo.OrderRow,
    db: Executor = this.deps.db,
    names?: { purchaser: string; supplier: string },
  ): Promise<PurchaseOrder> {
    const purchaserName = names ? names.purchaser : ((await getMerchant(db, r.purchaser_merchant_id))?.name ?? "");
    const supplierName = names ? names.supplier : ((await getMerchant(db, r.supplier_merchant_id))?.name ?? "");
    return {
      id: String(r.id),
      orderNo: r.order_no,
      purchaserId: String(r.purchaser_merchant_id),
      purchaserName,
      supplierId: String(r.supplier_merchant_id),
      supplierName,
      goodsId: String(r.goods_id),
      goodsName: r.goods_name,
      businessType: r.business_type,
      quantity: r.quantity,
      unitPrice: { amount: r.unit_price, currency: r.currency },
      amount: { amount: r.amount, currency: r.currency },
      state: r.state,
      topUpAccount: r.top_up_account,
      paidFrom: r.paid_from,
      upstreamChannelId: r.upstream_channel_id,
      failReason: r.fail_reason,
      refunded: r.refunded,
      createdAt: new Date(r.created_at).toISOString(),
      finishedAt: r.finished_at ? new Date(r.finished_at).toISOString() : null,
    };
  }
}
