import { z } from "zod";
import { denied, invalidParam } from "../errors";
import { deleteReportsBefore, insertReports, reportPage, type SdkReportRow } from "../store/reports";
import type { ImActor, ImDeps } from "./core";

/**
 * Data reports of the client SDKs (spec 03 §7 "Data-report POST"): a logged-in client posts batches of
 * events with the headers token, appid, sendts, biz and debug; each event is stored as one row. An app
 * admin lists them to see what clients reported.
 */

/** Events per POST: the SDK sends batches of 10; a little slack for other clients, no more. */
export const REPORT_BATCH_MAX = 100;
/** Bytes of one event's body as JSON. */
export const REPORT_BODY_MAX = 8192;
/** Rows one purge statement deletes: large enough to keep up, small enough for a short transaction. */
export const REPORT_PURGE_BATCH = 10_000;
const DAY_MS = 86_400_000;

const BIZ_RE = /^[A-Za-z0-9_.-]{1,32}$/;
const SENDTS_RE = /^\d{1,12}$/;

const eventSchema = z.object({
  eventId: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31 - 1),
  body: z.record(z.string(), z.unknown()),
});

export interface ReportHeaders {
  appid?: string | undefined;
  sendts?: string | undefined;
  biz?: string | undefined;
  debug?: string | undefined;
}

export interface SdkReport {
  id: string;
  username: string;
  appId: string;
  biz: string;
  debug: boolean;
  eventId: number;
  body: Record<string, unknown>;
  /** When the client sent the batch (its `sendts`), epoch ms. */
  sentAt: number;
  receivedAt: number;
}

export class ImReports {
  constructor(private readonly deps: ImDeps) {}

  /** Validates a batch (the first problem is a 400 naming it) and stores its events; returns how many. */
  async accept(actor: ImActor, headers: ReportHeaders, batch: unknown): Promise<number> {
    if (actor.kind !== "user") throw denied("data reports come from users' clients");
    if (headers.appid !== this.deps.appKey) throw invalidParam("appid");
    if (headers.biz === undefined || !BIZ_RE.test(headers.biz)) throw invalidParam("biz");
    if (headers.sendts === undefined || !SENDTS_RE.test(headers.sendts)) throw invalidParam("sendts");
    if (headers.debug !== undefined && headers.debug !== "true" && headers.debug !== "false") {
      throw invalidParam("debug");
    }
    if (!Array.isArray(batch) || batch.length === 0 || batch.length > REPORT_BATCH_MAX) throw invalidParam("events");
    const events = batch.map((raw: unknown, i) => {
      const parsed = eventSchema.safeParse(raw);
      if (!parsed.success) {
        const field = parsed.error.issues[0]?.path[0];
        throw invalidParam(`events[${i}]${typeof field === "string" ? `.${field}` : ""}`);
      }
      if (Buffer.byteLength(JSON.stringify(parsed.data.body)) > REPORT_BODY_MAX) {
        throw invalidParam(`events[${i}].body`);
      }
      return parsed.data;
    });
    const { appid, biz } = headers;
    const sentAt = new Date(Number(headers.sendts) * 1000);
    await insertReports(
      this.deps.db,
      events.map((e) => ({
        username: actor.username,
        appId: appid,
        biz,
        debug: headers.debug === "true",
        eventId: e.eventId,
        body: e.body,
        sentAt,
      })),
      this.deps.clock.now(),
    );
    return events.length;
  }

  /** Reports newest first (app admin only), `limit` a page, after the cursor of the previous page. */
  async list(
    actor: ImActor,
    filter: { cursor?: string | undefined; username?: string | undefined; eventId?: number | undefined },
    limit: number,
  ): Promise<{ items: SdkReport[]; cursor: string }> {
    if (actor.kind !== "app") throw denied("only the app admin reads data reports");
    let beforeId: number | null = null;
    if (filter.cursor) {
      beforeId = Number(Buffer.from(filter.cursor, "base64url").toString("utf8"));
      if (!Number.isSafeInteger(beforeId) || beforeId <= 0) throw invalidParam("cursor");
    }
    const rows = await reportPage(
      this.deps.db,
      { beforeId, username: filter.username, eventId: filter.eventId },
      limit + 1,
    );
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(present),
      cursor: rows.length > limit && last ? Buffer.from(String(last.id)).toString("base64url") : "",
    };
  }

  /**
   * Deletes the reports received more than IM_SDK_REPORTS_RETENTION_DAYS ago (by the injected clock), a
   * batch per statement until a batch comes back short; returns how many went.
   */
  async purgeExpired(batch = REPORT_PURGE_BATCH): Promise<number> {
    // A batch of 0 would never come back short, so the loop would never end.
    if (!Number.isInteger(batch) || batch < 1) {
      throw new RangeError(`purge batch must be a whole number of at least 1, got ${batch}`);
    }
    const before = new Date(this.deps.clock.now().getTime() - this.deps.config.sdkReportsRetentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const n = await deleteReportsBefore(this.deps.db, before, batch);
      total += n;
      if (n < batch) return total;
    }
  }
}

function present(r: SdkReportRow): SdkReport {
  return {
    id: String(r.id),
    username: r.username,
    appId: r.app_id,
    biz: r.biz,
    debug: r.debug,
    eventId: r.event_id,
    body: r.body,
    sentAt: new Date(r.sent_at).getTime(),
    receivedAt: new Date(r.received_at).getTime(),
  };
}
