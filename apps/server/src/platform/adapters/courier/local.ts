import { randomInt } from "node:crypto";
import { beijingText, type CourierAdapter, type PushParam } from "./shared";

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

/** The local courier: waybill numbers from a local sequence (or the one the brand typed). */
export function localCourier(): CourierAdapter {
  return {
    kind: "local",
    createWaybill: (req) => Promise.resolve({ waybillNo: req.waybillNo ?? localWaybillNo(req.companyCode) }),
  };
}
