import { logger } from "../logger.js";
import { type ChatMessage } from "../message.js";
import { COMMAND, CommSyncUL, encode, type Decoded } from "../proto.js";

import { type Jid, jidKey, STATUS, NOTICE_TIMER_MS, ConnectionBase } from "./base.js";

/**
 * The sync queues the unread list and notices name: pulled one at a time until each one's backlog is
 * drained; pulling again with the key a batch came with acknowledges that batch.
 */
export abstract class ConnectionSync extends ConnectionBase {
  protected enqueuePull(q: Jid): void {
    const key = jidKey(q);
    if (this.pulling === key) {
      this.pullAgain.add(key);
      return;
    }
    if (this.pulls.some((p) => jidKey(p) === key)) return;
    this.pulls.push(q);
    if (!this.pulling) this.nextPull();
  }

  protected nextPull(): void {
    const q = this.pulls.shift();
    if (!q) {
      this.pulling = undefined;
      clearTimeout(this.pullTimer);
      if (!this.offlineSyncDone) {
        this.offlineSyncDone = true;
        this.events.dispatch("onOfflineMessageSyncFinish");
      }
      return;
    }
    this.pulling = jidKey(q);
    this.pull(q);
  }

  /** Sends a pull; without an answer within NOTICE_TIMER_MS the same pull goes out again. */
  protected pull(q: Jid): void {
    const key = jidKey(q);
    const last = this.lastKeys.get(key);
    clearTimeout(this.pullTimer);
    this.pullTimer = setTimeout(() => {
      if (this.pulling === key && this.status === STATUS.OPENED) this.pull(q);
    }, NOTICE_TIMER_MS);
    this.write({ command: COMMAND.SYNC, payload: encode(CommSyncUL, { queue: q, ...(last && { key: last }) }) });
  }

  protected handlePull(dl: Decoded): void {
    const q = (dl.queue as Jid | undefined) ?? {};
    const key = jidKey(q);
    const metas = (dl.metas as Decoded[]) ?? [];
    const received: ChatMessage[] = [];
    for (const m of metas) {
      try {
        this.handleMeta(m, received);
      } catch (e) {
        logger.error("on message error", e);
      }
    }
    if (received.length > 0) {
      this.events.dispatch(
        "onMessage",
        received.filter((m) => m.type !== "cmd"),
      );
    }
    const nextKey = dl.nextKey as string | undefined;
    const previous = this.lastKeys.get(key);
    if (nextKey && nextKey !== "0") this.lastKeys.set(key, nextKey);
    if (this.pulling !== key) {
      // An unsolicited batch (the server pushed a clean queue's new entries): pull once more with its
      // key, as a pull reply would be followed, which acknowledges them. Unacknowledged, they would all
      // come again after the next reconnect.
      if (metas.length > 0 && !dl.isLast) this.enqueuePull(q);
      return;
    }
    clearTimeout(this.pullTimer);
    const done = Boolean(dl.isLast) && metas.length === 0;
    const stuck = metas.length === 0 && nextKey === previous;
    if (!done && !stuck) {
      this.pull(q);
      return;
    }
    if (this.pullAgain.delete(key)) this.pulls.push(q);
    this.nextPull();
  }
}
