import { withTx, type Db, type Tx } from "../../../../db/tx";
import type { PaymentHandlers } from "../index";
import * as repo from "../payments.repo";
import type { AlipayAdapter, AlipayTrade } from "./adapter";
import { fenOf } from "./signing";

export type AlipayNoticeOutcome = "credited" | "duplicate" | "refused" | "late_refunded";

export interface AlipayNoticeResult {
  /** Whether Alipay should stop sending it (the literal `success`) or it was refused (`fail`). */
  accepted: boolean;
  outcome: AlipayNoticeOutcome;
  detail: string;
}

interface Deps {
  db: Db;
  adapter: AlipayAdapter;
  handlers: PaymentHandlers;
  log: (line: string) => void;
}

type Meta = { id?: string | undefined; event?: string | undefined };

const one = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * One async notification from Alipay (issue 41), its form fields as posted: the signature verified first
 * with Alipay's public key (RSA2 over the sorted fields but sign and sign_type, alipay-sdk's
 * checkNotifySignV2); then our app_id, a known out_trade_no of this provider and its exact total_amount;
 * only then, in one transaction under the payment's row, TRADE_SUCCESS or TRADE_FINISHED makes it paid
 * once and runs the subject's handler. A refused notice changes nothing but the notices' log; the same
 * notice again is a duplicate.
 */
export async function receiveAlipayNotice(
  deps: Deps,
  fields: Record<string, string>,
  now: Date,
): Promise<AlipayNoticeResult> {
  const meta: Meta = {
    id: one(fields.notify_id),
    event: `${one(fields.notify_type) ?? "?"}:${one(fields.trade_status) ?? "?"}`.slice(0, 100),
  };
  const paymentNo = one(fields.out_trade_no);
  const refuse = refuser(deps, meta, paymentNo, now);
  let verified: boolean;
  try {
    verified = deps.adapter.sdk.checkNotifySignV2(fields);
  } catch (err) {
    return refuse(`signature check failed: ${(err as Error).message}`);
  }
  if (!verified) return refuse("signature does not verify with Alipay's public key");
  if (fields.app_id !== deps.adapter.config.appId) return refuse(`app_id ${fields.app_id} is not ours`);
  if (!paymentNo) return refuse("no out_trade_no");
  return settleAlipayTrade(deps, fields as unknown as AlipayTrade, now, meta, refuse);
}

type Refuse = (detail: string) => Promise<AlipayNoticeResult>;

function refuser(deps: Deps, meta: Meta, paymentNo: string | undefined, now: Date): Refuse {
  return async (detail) => {
    deps.log(`alipay notification refused: ${detail}`);
    await repo.logNotice(deps.db, {
      provider: deps.adapter.name,
      notice_id: meta.id ?? null,
      event_type: meta.event ?? null,
      payment_no: paymentNo ?? null,
      outcome: "refused",
      detail: detail.slice(0, 500),
      received_at: now,
    });
    return { accepted: false, outcome: "refused", detail };
  };
}

/**
 * A verified trade (notification or query): paid once, then the subject's handler in the same
 * transaction; paid after its order closed (closed here, or the handler no longer wants it): refunded in
 * full at once. Other statuses (WAIT_BUYER_PAY, TRADE_CLOSED) are taken and change nothing.
 */
export async function settleAlipayTrade(
  deps: Deps,
  t: AlipayTrade,
  now: Date,
  meta: Meta,
  refuse: Refuse,
): Promise<AlipayNoticeResult> {
  const { adapter } = deps;
  const paid = t.trade_status === "TRADE_SUCCESS" || t.trade_status === "TRADE_FINISHED";
  const result = await withTx(deps.db, async (tx) => {
    const p = await repo.lockPayment(tx, t.out_trade_no);
    if (!p || p.provider !== adapter.name) return { refused: `unknown out_trade_no ${t.out_trade_no}` };
    const total = fenOf(t.total_amount);
    if (total !== p.amount) {
      return { refused: `total_amount ${t.total_amount} of ${t.out_trade_no} is not the payment's ${p.amount} fen` };
    }
    if (!paid) {
      return { outcome: "duplicate" as const, detail: `${t.out_trade_no} ${t.trade_status}: nothing to settle` };
    }
    if (!(await repo.markPaid(tx, p.id, t.trade_no ?? "", now))) {
      return { outcome: "duplicate" as const, detail: `${t.out_trade_no} already paid` };
    }
    let wanted = false;
    if (p.state === "pending") {
      const handler = deps.handlers.of(p.subject_type);
      wanted = handler
        ? await handler.paid(
            tx,
            {
              paymentNo: p.payment_no,
              subjectId: p.subject_id,
              merchantId: p.merchant_id,
              amount: p.amount,
              sandbox: p.sandbox,
              providerTxnId: t.trade_no ?? "",
            },
            now,
          )
        : false;
    }
    if (wanted) return { outcome: "credited" as const, detail: `${t.out_trade_no} paid` };
    return lateRefund(tx, adapter, p, now);
  });
  if ("refused" in result) return refuse(result.refused ?? "");
  await repo.logNotice(deps.db, {
    provider: adapter.name,
    notice_id: meta.id ?? null,
    event_type: meta.event ?? null,
    payment_no: t.out_trade_no,
    outcome: result.outcome,
    detail: result.detail,
    received_at: now,
  });
  if (result.outcome === "late_refunded") deps.log(`alipay ${result.detail}`);
  return { accepted: true, outcome: result.outcome, detail: result.detail };
}

/** Paid after its order closed: the whole payment goes back to the payer, nothing is credited. */
async function lateRefund(tx: Tx, adapter: AlipayAdapter, p: repo.PaymentRow, now: Date) {
  const back = await adapter.refund(
    tx,
    { paymentNo: p.payment_no, refundNo: `${p.payment_no}L`, amount: p.amount },
    now,
  );
  return {
    outcome: "late_refunded" as const,
    detail: `${p.payment_no} paid after its order closed: refund ${p.payment_no}L ${back.state}`,
  };
}

/**
 * What a poll does when the notification has not come: Alipay's word by alipay.trade.query (its answer's
 * signature verified by the SDK), settled the same way as its notification would have been.
 */
export async function syncAlipayPayment(deps: Deps, paymentNo: string, now: Date): Promise<AlipayNoticeResult | null> {
  const p = await repo.paymentByNo(deps.db, paymentNo);
  if (p?.provider !== deps.adapter.name || p.state !== "pending") return null;
  const t = await deps.adapter.trade(paymentNo);
  if (t?.trade_status !== "TRADE_SUCCESS" && t?.trade_status !== "TRADE_FINISHED") return null;
  const refuse: Refuse = (detail) => {
    deps.log(`alipay query of ${paymentNo} refused: ${detail}`);
    return Promise.resolve({ accepted: false, outcome: "refused", detail });
  };
  return settleAlipayTrade(deps, { ...t, out_trade_no: paymentNo }, now, { event: "QUERY" }, refuse);
}
