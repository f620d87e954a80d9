import type { ImMucOp, ImRosterOp } from "@tessera/contracts";

/**
 * What the IM service tells the realtime side after a change commits. Durable notices are also in the
 * recipients' sync queues (im_inbox), so an offline device gets them when it next syncs; the bus only
 * wakes up the devices that are online. The gateway (issue 9) subscribes; until then nothing listens.
 */
export type ImNotice =
  | {
      ns: "muc";
      op: ImMucOp;
      kind: "group" | "room";
      mucId: string;
      from: string;
      /** The device of `from` that acted, when the user's other devices must tell it apart (member attributes). */
      fromResource?: string;
      /** The users the operation is about (muted, invited, removed ...). */
      users?: string[];
      reason?: string;
      /** Extra fields of the event (mute expiry, attributes, announcement, file ...). */
      detail?: Record<string, unknown>;
      /** The number of members after a join or leave. */
      memberCount?: number;
    }
  | { ns: "roster"; op: ImRosterOp; from: string; to: string; reason?: string }
  | {
      ns: "notify";
      type: "presence" | "reaction" | "thread" | "conv" | "roaming_delete" | "pin" | "user_notification_mute";
      from: string;
      detail: Record<string, unknown>;
    }
  /**
   * A message sent outside the gateway (the REST send) was queued for the recipients in `queue`: wakes
   * their devices (never stored as a notice: the queue entries are the message itself).
   */
  | { ns: "message"; from: string; queue: string }
  /** Ends every session of `from` (never stored: a device that is offline simply cannot log in again). */
  | { ns: "session"; op: "passwordChanged" | "removed" | "disconnected"; from: string };

export interface ImDelivery {
  /** Recipients (usernames). */
  to: string[];
  notice: ImNotice;
  /** The device (resource) that caused it and already knows. */
  skipResource?: string | undefined;
  /** Whether the notice is also in the recipients' sync queues (else it reaches online devices only). */
  durable?: boolean;
}

export type ImListener = (deliveries: readonly ImDelivery[]) => void;

export interface ImBus {
  publish(deliveries: readonly ImDelivery[]): void;
  subscribe(listener: ImListener): () => void;
}

/** The in-process bus: one server process. A multi-process deployment swaps in a Redis-backed one. */
export function createLocalBus(onError: (err: unknown) => void = () => undefined): ImBus {
  const listeners = new Set<ImListener>();
  return {
    publish(deliveries) {
      if (deliveries.length === 0) return;
      for (const listener of listeners) {
        try {
          listener(deliveries);
        } catch (err) {
          onError(err);
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
