import { createHash } from "node:crypto";

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

/** A courier's refusal, shown to the brand as commerce.courierFailed. */
export class CourierError extends Error {}
