import { COMMERCE_LIMITS } from "@tessera/contracts";
import type { Job } from "../../platform/jobs";
import type { CommerceService } from "./service";

/** The local courier simulator: pushes the tracking events whose time has come (each waybill once per step). */
export function courierSimulatorJob(commerce: CommerceService, everyMs: number): Job {
  return {
    name: "commerce-courier-simulator",
    everyMs,
    run: async () => {
      const pushed = await commerce.runCourierSimulator();
      return pushed > 0 ? `${pushed} waybill(s) moved on` : undefined;
    },
  };
}

/** Unpaid orders close after COMMERCE_LIMITS.unpaidCloseMinutes; shipped orders are confirmed after the configured days. */
export function orderTimersJob(commerce: CommerceService): Job {
  return {
    name: "commerce-order-timers",
    everyMs: 60_000,
    run: async () => {
      const { closed, confirmed } = await commerce.runTimers(COMMERCE_LIMITS.unpaidCloseMinutes);
      return closed + confirmed > 0 ? `${closed} unpaid closed, ${confirmed} confirmed` : undefined;
    },
  };
}
