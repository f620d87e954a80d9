import { withTx, type Db, type Tx } from "../../../../db/tx";
import type { PaymentHandlers } from "../index";
import type { WechatPayAdapter, WechatTransaction } from "./adapter";
import { decryptResource, verifyPlatformSignature, type NotificationResource, type SignedHeaders } from "./signing";
import * as repo from "./wechatpay.repo";

/** A refund as WeChat Pay's refund notification and query describe it (the fields used here). */
interface WechatRefund {
  mchid: string;
  out_trade_no: string;
  out_refund_no: string;
  refund_id?: string;
  refund_status: string;
  amount?: { total: number; refund: number };
}

export type NoticeOutcome = "credited" | "settled" | "duplicate" | "refused" | "late_refunded";

export interface NoticeResult {
  /** Whether WeChat Pay should stop sending it (HTTP 200/204) or it was refused (401 and WeChat's {code,message}). */
  accepted: boolean;
  outcome: NoticeOutcome;
  detail: string;
}

interface Deps {
  db: Db;
  adapter: WechatPayAdapter;
  handlers: PaymentHandlers;
  log: (line: string) => void;
}

/**
 * One notification from WeChat Pay (issue 41): its signature verified with the platform public key over
 * `timestamp\nnonce\nbody\n`, its timestamp within 5 minutes (a replay is refused), its resource decrypted
 * with the APIv3 key; only then, in one transaction under the payment's row, pending → paid once and the
 * subject's handler (or a refund settled). Anything refused changes nothing but the notices' log.
 */
export async function receiveNotice(
  deps: Deps,
  headers: Partial<SignedHeaders>,
  body: string,
  now: Date,
): Promise<NoticeResult> {
  const { adapter } = deps;
  const refuse = async (detail: string, extra: { id?: string; event?: string; paymentNo?: string } = {}) => {
    deps.log(`wechatpay notification refused: ${detail}`);
    await repo.logNotice(deps.db, {
      provider: adapter.name,
      notice_id: extra.id ?? null,
      event_type: extra.event ?? null,
      payment_no: extra.paymentNo ?? null,
      outcome: "refused",
      detail: detail.slice(0, 500),
      received_at: now,
    });
    return { accepted: false, outcome: "refused" as const, detail };
  };
  const why = verifyPlatformSignature(
    headers,
    body,
    adapter.keys.platformPublicKey,
    adapter.config.platformPublicKeyId,
    Math.floor(now.getTime() / 1000),
  );
  if (why) return refuse(why);
  let notice: { id?: string; event_type?: string; resource?: NotificationResource };
  let plain: unknown;
  try {
    notice = JSON.parse(body) as typeof notice;
    if (!notice.resource) throw new Error("no resource");
    plain = decryptResource(notice.resource, adapter.keys.apiv3Key);
  } catch (err) {
    return refuse(`cannot decrypt the resource: ${(err as Error).message}`);
  }
  const meta = { id: notice.id, event: notice.event_type };
  if (notice.event_type === "TRANSACTION.SUCCESS") {
    const t = plain as WechatTransaction;
    return settlePayment(deps, t, now, meta, refuse);
  }
  if (notice.event_type?.startsWith("REFUND.")) {
    return settleRefund(deps, plain as WechatRefund, now, meta, refuse);
  }
  return refuse(`unexpected event_type ${notice.event_type}`, meta);
}

type Refuse = (detail: string, extra?: { id?: string; event?: string; paymentNo?: string }) => Promise<NoticeResult>;

/**
 * pending → paid once, then the subject's handler in the same transaction. A payment whose order closed
 * meanwhile (closed here, or the handler no longer wants it) is refunded in full at once.
 */
export async function settlePayment(
  deps: Deps,
  t: WechatTransaction,
  now: Date,
  meta: { id?: string | undefined; event?: string | undefined },
  refuse: Refuse,
): Promise<NoticeResult> {
  const { adapter } = deps;
  const ids = {
    ...(meta.id && { id: meta.id }),
    ...(meta.event && { event: meta.event }),
    ...(typeof t.out_trade_no === "string" && { paymentNo: t.out_trade_no }),
  };
  if (t.mchid !== adapter.config.mchid) return refuse(`mchid ${t.mchid} is not ours`, ids);
  if (t.trade_state !== "SUCCESS") return refuse(`trade_state ${t.trade_state}`, ids);
  const result = await withTx(deps.db, async (tx) => {
    const p = await repo.lockPayment(tx, t.out_trade_no);
    if (!p || p.provider !== adapter.name) return { refused: `unknown out_trade_no ${t.out_trade_no}` };
    if (t.amount?.total !== p.amount) {
      return { refused: `amount ${t.amount?.total} of ${t.out_trade_no} is not the payment's ${p.amount}` };
    }
    if (!(await repo.markPaid(tx, p.id, t.transaction_id ?? "", now))) {
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
              providerTxnId: t.transaction_id ?? "",
            },
            now,
          )
        : false;
    }
    if (wanted) return { outcome: "credited" as const, detail: `${t.out_trade_no} paid` };
    return lateRefund(tx, adapter, p, now);
  });
  if ("refused" in result) return refuse(result.refused ?? "", ids);
  await repo.logNotice(deps.db, {
    provider: adapter.name,
    notice_id: meta.id ?? null,
    event_type: meta.event ?? null,
    payment_no: t.out_trade_no,
    outcome: result.outcome,
    detail: result.detail,
    received_at: now,
  });
  if (result.outcome === "late_refunded") deps.log(`wechatpay ${result.detail}`);
  return { accepted: true, outcome: result.outcome, detail: result.detail };
}

/** Paid after its order closed: the whole payment goes back to the payer, nothing is credited. */
async function lateRefund(tx: Tx, adapter: WechatPayAdapter, p: repo.PaymentRow, now: Date) {
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

/** processing → success | failed once; a failed refund gives its reservation back to the payment. */
async function settleRefund(
  deps: Deps,
  r: WechatRefund,
  now: Date,
  meta: { id?: string | undefined; event?: string | undefined },
  refuse: Refuse,
): Promise<NoticeResult> {
  const ids = {
    ...(meta.id && { id: meta.id }),
    ...(meta.event && { event: meta.event }),
    ...(typeof r.out_trade_no === "string" && { paymentNo: r.out_trade_no }),
  };
  if (r.mchid !== deps.adapter.config.mchid) return refuse(`mchid ${r.mchid} is not ours`, ids);
  const state = r.refund_status === "SUCCESS" ? "success" : r.refund_status === "PROCESSING" ? null : "failed";
  if (!state) return refuse(`refund_status ${r.refund_status} settles nothing`, ids);
  const result = await withTx(deps.db, async (tx) => {
    const f = await repo.refundByNo(tx, r.out_refund_no);
    if (!f || f.payment_no !== r.out_trade_no) return { refused: `unknown out_refund_no ${r.out_refund_no}` };
    if (r.amount && r.amount.refund !== f.amount) {
      return { refused: `refund ${r.out_refund_no} of ${r.amount.refund} is not ours of ${f.amount}` };
    }
    if (!(await repo.settleRefund(tx, f.id, state, r.refund_id ?? null, now))) {
      return { outcome: "duplicate" as const, detail: `${r.out_refund_no} already settled` };
    }
    if (state === "failed") await repo.releaseRefunded(tx, f.payment_id, f.amount);
    await deps.handlers.of(f.subject_type)?.refundSettled?.(
      tx,
      {
        paymentNo: f.payment_no,
        refundNo: f.refund_no,
        subjectId: f.subject_id,
        amount: f.amount,
        sandbox: f.sandbox,
        state,
      },
      now,
    );
    return { outcome: "settled" as const, detail: `${r.out_refund_no} ${state}` };
  });
  if ("refused" in result) return refuse(result.refused ?? "", ids);
  if (state === "failed") deps.log(`wechatpay refund ${r.out_refund_no} failed (${r.refund_status})`);
  await repo.logNotice(deps.db, {
    provider: deps.adapter.name,
    notice_id: meta.id ?? null,
    event_type: meta.event ?? null,
    payment_no: r.out_trade_no,
    outcome: result.outcome,
    detail: result.detail,
    received_at: now,
  });
  return { accepted: true, outcome: result.outcome, detail: result.detail };
}

/**
 * What a poll does when the notification has not come (lost, or the notify URL unreachable): the
 * provider's word by query, settled the same way as its notification would have.
 */
export async function syncPayment(deps: Deps, paymentNo: string, now: Date): Promise<NoticeResult | null> {
  const p = await repo.paymentByNo(deps.db, paymentNo);
  if (p?.provider !== deps.adapter.name || p.state !== "pending") return null;
  const t = await deps.adapter.transaction(paymentNo);
  if (t?.trade_state !== "SUCCESS") return null;
  const refuse: Refuse = (detail) => {
    deps.log(`wechatpay query of ${paymentNo} refused: ${detail}`);
    return Promise.resolve({ accepted: false, outcome: "refused", detail });
  };
  return settlePayment(deps, t, now, { event: "QUERY" }, refuse);
}
