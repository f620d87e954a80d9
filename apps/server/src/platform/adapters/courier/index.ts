import type { Config } from "../../../config";
import { keyedHash } from "../../crypto/tokens";
import { localCourier } from "./local";
import { Kuaidi100Courier } from "./real";
import type { CourierAdapter } from "./shared";

export * from "./shared";
export { SIM_TRACE, simulatedPush, localWaybillNo } from "./local";
export { Kuaidi100Courier } from "./real";

/**
 * The courier the modules ship through, built in the context beside mail and SMS: Kuaidi100 when it is
 * configured, else the local simulator (a sandbox: its waybills and traces are made up here). `pushSalt`
 * signs the tracking pushes (configured, or derived from the installation's secret).
 */
export interface Courier {
  adapter: CourierAdapter;
  pushSalt: string;
}

export function createCourier(config: Config, secret: Buffer): Courier {
  const cfg = config.commerce;
  const pushSalt = cfg.pushSalt ?? keyedHash(secret, "courier-push-salt").slice(0, 32);
  const adapter = cfg.kuaidi100 ? new Kuaidi100Courier({ ...cfg.kuaidi100, salt: pushSalt }) : localCourier();
  return { adapter, pushSalt };
}
