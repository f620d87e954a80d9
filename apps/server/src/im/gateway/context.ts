import type { ImDeps } from "../service/core";
import type { ImServices } from "../service";
import type { AckBatcher } from "./acks";
import type { AppendBatcher } from "./batcher";
import type { DeviceChanges } from "./device-changes";
import type { Hub } from "./hub";

export interface GatewayOptions {
  /** Devices one user may have connected at once (TOO_MANY_DEVICES beyond). */
  maxDevices: number;
  /** How long after sending a message its sender may recall it. */
  recallWindowMs: number;
  /** Largest MessageBody accepted ("Sorry, data is too large" beyond). */
  maxBodyBytes: number;
  /** Entries per pull reply. */
  batchSize: number;
  /** A socket that sends nothing for this long is closed (clients heartbeat every 30-60 s). */
  idleMs: number;
  /** Times a text message may be edited. */
  editLimit: number;
  /** Largest receiver list of a directed group message. */
  maxDirectedUsers: number;
  /**
   * On shutdown, how long sessions may take to finish the frames they are handling (and acknowledge
   * them) before every socket closes anyway.
   */
  drainMs: number;
  /** Redis for delivery between processes; undefined: this process only. */
  redisUrl?: string | undefined;
  /** What this deployment's Redis channel names start with (REDIS_PREFIX; config.ts, context.ts). */
  redisPrefix?: string | undefined;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  maxDevices: 4,
  recallWindowMs: 120_000,
  maxBodyBytes: 64 * 1024,
  batchSize: 50,
  idleMs: 180_000,
  editLimit: 10,
  maxDirectedUsers: 100,
  drainMs: 10_000,
};

export interface GatewayCtx {
  services: ImServices;
  deps: ImDeps;
  hub: Hub;
  batcher: AppendBatcher;
  /** Acknowledgements of pulls, stored together. */
  acks: AckBatcher;
  options: GatewayOptions;
  /** This process's id in device leases (random per start). */
  node: string;
  /** Connects and disconnects, written to leases and presence in batches. */
  devices: DeviceChanges;
  log(message: string): void;
}
