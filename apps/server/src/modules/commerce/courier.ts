import { createHash, randomInt } from "node:crypto";

/**
 * Courier adapters. Shipping asks the adapter for a waybill (an electronic waybill order) and subscribes
 * it to tracking; the courier then pushes tracking in Kuaidi100's shape (`param` JSON + `sign`), which
 * `parsePush` reads whoever sent it. Two adapters: the local courier simulator (waybills from a local
 * sequence, a scripted trace pushed step by step by a job, see jobs.ts) and Kuaidi100, written against its
 * documented API: e-waybill `POST api.kuaidi100.com/label/order` (sign = MD5(param + t + key + secret)),
 * subscription `POST poll.kuaidi100.com/poll` (salted pushes), real-time query `POST
 * poll.kuaidi100.com/poll/query.do` (sign = MD5(param + key + customer)); signs upper-case hex.
 */

export interface WaybillRequest {
  companyCode: string;
  orderNo: string;
  /** An existing waybill number (the brand wrote it by hand): only subscribe to its tracking. */
  waybillNo?: string | undefined;
  recipient: { name: string; mobile: string; printAddr: string };
  sender: { name: string; mobile: string; printAddr: string };
  cargo: string;
  weightKg: number;
}

export interface CourierAdapter {
  readonly kind: "local" | "kuaidi100";
  /** Issues (or adopts) a waybill and subscribes it to tracking pushes. */
  createWaybill(req: WaybillRequest): Promise<{ waybillNo: string }>;
}

export const md5Upper = (s: string): string => createHash("md5").update(s, "utf8").digest("hex").toUpperCase();

/** Kuaidi100 push signature: MD5(param + salt), upper case. */
export const pushSign = (param: string, salt: string): string => md5Upper(param + salt);

/** One event of a push's `lastResult.data` (resultv2=1 adds statusCode, areaName). */
export interface PushEvent {
  time: string;
  context: string;
  status?: string;
  statusCode?: string;
  areaName?: string;
}
export interface PushParam {
  status: "polling" | "shutdown" | "abort" | "updateall";
  message?: string;
  autoCheck?: string;
  comOld?: string;
  comNew?: string;
  lastResult: { state: string; com: string; nu: string; ischeck?: string; data: PushEvent[] };
}

/** The main Kuaidi100 state of a sub-state code: 101-103 → 1, 1001-1003 → 0, 301-304 → 3, 501 → 5. */
export function mainState(code: string | undefined, fallback: number): number {
  if (!code || !/^\d{1,4}$/.test(code)) return fallback;
  if (code.length <= 2) return Number(code);
  if (code.length === 4) return code.startsWith("10") ? 0 : Number(code.slice(0, 2));
  return Number(code[0]);
}

const STATE_WORDS: Record<string, number> = {
  在途: 0,
  揽收: 1,
  疑难: 2,
  签收: 3,
  退签: 4,
  派件: 5,
  退回: 6,
  转投: 7,
  拒签: 14,
};

/** Beijing time "2026-11-26 10:00:00" (how couriers write event times) as an instant. */
export function beijingTime(s: string): Date | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)$/.exec(s.trim());
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${m[2]}${m[2]?.length === 5 ? ":00" : ""}+08:00`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
export function beijingText(d: Date): string {
  return new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace("T", " ");
}

export interface ParsedPush {
  company: string;
  waybillNo: string;
  /** A corrected company code (autoCheck): the shipment's company becomes this. */
  correctedCompany: string | undefined;
  state: number;
  events: { at: Date; state: number; context: string; area: string }[];
}

/** Reads a push's `param`; undefined when it is not one. Events come oldest first. */
export function parsePush(param: string): ParsedPush | undefined {
  let p: unknown;
  try {
    p = JSON.parse(param);
  } catch {
    return undefined;
  }
  if (!p || typeof p !== "object") return undefined;
  const last = (p as Partial<PushParam>).lastResult;
  if (!last || typeof last.nu !== "string" || typeof last.com !== "string" || !Array.isArray(last.data)) {
    return undefined;
  }
  const newest = Number(last.state);
  const overall = Number.isInteger(newest) ? newest : 0;
  const events: ParsedPush["events"] = [];
  for (const [i, e] of (last.data as unknown[]).entries()) {
    if (!e || typeof e !== "object") continue;
    const ev = e as Partial<PushEvent>;
    const at = typeof ev.time === "string" ? beijingTime(ev.time) : undefined;
    if (!at || typeof ev.context !== "string") continue;
    const word = typeof ev.status === "string" ? STATE_WORDS[ev.status] : undefined;
    const fallback = word ?? (i === 0 ? overall : 0);
    events.push({
      at,
      state: mainState(typeof ev.statusCode === "string" ? ev.statusCode : undefined, fallback),
      context: ev.context.slice(0, 500),
      area: typeof ev.areaName === "string" ? ev.areaName.slice(0, 100) : "",
    });
  }
  events.sort((a, b) => a.at.getTime() - b.at.getTime());
  const q = p as Partial<PushParam>;
  const corrected = q.autoCheck === "1" && typeof q.comNew === "string" && q.comNew !== last.com ? q.comNew : undefined;
  return { company: last.com, waybillNo: last.nu, correctedCompany: corrected, state: overall, events };
}

/** The scripted trace of the local courier: what happens to a parcel, step by step. */
export const SIM_TRACE: Record<
  "signed" | "refused" | "returned",
  { state: number; code: string; status: string; context: string }[]
> = {
  signed: [
    { state: 1, code: "103", status: "揽收", context: "【杭州市】快件已由快递员揽收" },
    { state: 0, code: "1002", status: "在途", context: "【杭州市】快件已发往 目的地转运中心" },
    { state: 0, code: "1001", status: "在途", context: "快件已到达 目的地转运中心" },
    { state: 5, code: "5", status: "派件", context: "快件正在派送中，快递员电话 13800000000" },
    { state: 3, code: "301", status: "签收", context: "快件已签收，签收人：本人" },
  ],
  refused: [
    { state: 1, code: "103", status: "揽收", context: "【杭州市】快件已由快递员揽收" },
    { state: 0, code: "1001", status: "在途", context: "快件已到达 目的地转运中心" },
    { state: 5, code: "5", status: "派件", context: "快件正在派送中" },
    { state: 14, code: "14", status: "拒签", context: "收件人拒收快件" },
  ],
  returned: [
    { state: 1, code: "103", status: "揽收", context: "【杭州市】快件已由快递员揽收" },
    { state: 2, code: "2", status: "疑难", context: "地址不详，联系不上收件人" },
    { state: 6, code: "6", status: "退回", context: "快件退回寄件人" },
    { state: 4, code: "4", status: "退签", context: "退回件已由寄件人签收" },
  ],
};

/** A simulated push of the first `steps` events of a trace, in Kuaidi100's shape (newest first). */
export function simulatedPush(
  sim: {
    waybill_no: string;
    company_code: string;
    outcome: "signed" | "refused" | "returned";
    step_seconds: number;
    created_at: Date;
  },
  steps: number,
): PushParam {
  const trace = SIM_TRACE[sim.outcome].slice(0, steps);
  const data = trace
    .map((t, i) => {
      const time = beijingText(new Date(new Date(sim.created_at).getTime() + (i + 1) * sim.step_seconds * 1000));
      return { time, ftime: time, context: t.context, status: t.status, statusCode: t.code, areaName: "浙江,杭州市" };
    })
    .reverse();
  const last = trace.at(-1);
  const finished = steps >= SIM_TRACE[sim.outcome].length;
  return {
    status: finished ? "shutdown" : "polling",
    message: "",
    lastResult: {
      state: String(last?.state ?? 0),
      com: sim.company_code,
      nu: sim.waybill_no,
      ischeck: finished && last?.state === 3 ? "1" : "0",
      data,
    },
  };
}

/** Waybill numbers of the local courier: a prefix of the company and 12 digits. */
export function localWaybillNo(companyCode: string): string {
  const prefix = companyCode
    .slice(0, 2)
    .toUpperCase()
    .replace(/[^A-Z]/g, "X");
  return `${prefix}${Date.now().toString().slice(-7)}${String(randomInt(0, 100_000)).padStart(5, "0")}`;
}

/** The Kuaidi100 adapter. `fetchFn` is the HTTP client (the tests pass a recorder). */
export class Kuaidi100Courier implements CourierAdapter {
  readonly kind = "kuaidi100" as const;
  constructor(
    private readonly cfg: { customer: string; key: string; secret: string; salt: string; callbackUrl: string },
    private readonly fetchFn: typeof fetch = fetch,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async form(url: string, fields: Record<string, string>): Promise<unknown> {
    const res = await this.fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`kuaidi100 answered ${res.status} without JSON`);
    }
  }

  /** The e-waybill order's form: `method=order`, key, t, sign = MD5(param + t + key + secret), param. */
  labelOrderForm(req: WaybillRequest): Record<string, string> {
    const param = JSON.stringify({
      kuaidicom: req.companyCode,
      recMan: req.recipient,
      sendMan: req.sender,
      cargo: req.cargo,
      weight: String(req.weightKg),
      count: 1,
      printType: "NON",
      orderId: req.orderNo,
      callBackUrl: this.cfg.callbackUrl,
      salt: this.cfg.salt,
      needSubscribe: true,
      resultv2: "1",
    });
    const t = String(this.now().getTime());
    return { method: "order", key: this.cfg.key, t, sign: md5Upper(param + t + this.cfg.key + this.cfg.secret), param };
  }

  /** The subscription form: schema=json, param {company, number, key, parameters {callbackurl, salt, resultv2, phone}}. */
  subscribeForm(companyCode: string, waybillNo: string, phone: string): Record<string, string> {
    return {
      schema: "json",
      param: JSON.stringify({
        company: companyCode,
        number: waybillNo,
        key: this.cfg.key,
        parameters: { callbackurl: this.cfg.callbackUrl, salt: this.cfg.salt, resultv2: "1", phone },
      }),
    };
  }

  /** The real-time query form: customer, sign = MD5(param + key + customer), param {com, num, phone, resultv2}. */
  queryForm(companyCode: string, waybillNo: string, phone: string): Record<string, string> {
    const param = JSON.stringify({ com: companyCode, num: waybillNo, phone, resultv2: "1" });
    return { customer: this.cfg.customer, sign: md5Upper(param + this.cfg.key + this.cfg.customer), param };
  }

  async createWaybill(req: WaybillRequest): Promise<{ waybillNo: string }> {
    if (req.waybillNo) {
      const sub = (await this.form(
        "https://poll.kuaidi100.com/poll",
        this.subscribeForm(req.companyCode, req.waybillNo, req.recipient.mobile),
      )) as { result?: boolean; returnCode?: string; message?: string };
      // 501: already subscribed, which is what we want.
      if (!sub.result && sub.returnCode !== "501") {
        throw new CourierError(sub.message ?? `subscription refused (${sub.returnCode ?? "?"})`);
      }
      return { waybillNo: req.waybillNo };
    }
    const reply = (await this.form("https://api.kuaidi100.com/label/order", this.labelOrderForm(req))) as {
      result?: boolean;
      returnCode?: string;
      message?: string;
      data?: { kuaidinum?: string };
    };
    const no = reply.data?.kuaidinum;
    if (!reply.result || !no) throw new CourierError(reply.message ?? `order refused (${reply.returnCode ?? "?"})`);
    return { waybillNo: no };
  }

  /** A real-time query answers in the push's lastResult shape. */
  async query(companyCode: string, waybillNo: string, phone: string): Promise<ParsedPush | undefined> {
    const reply = await this.form(
      "https://poll.kuaidi100.com/poll/query.do",
      this.queryForm(companyCode, waybillNo, phone),
    );
    return parsePush(JSON.stringify({ status: "polling", lastResult: reply }));
  }
}

/** A courier's refusal, shown to the brand as commerce.courierFailed. */
export class CourierError extends Error {}
