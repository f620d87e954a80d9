import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { ManualClock } from "../../platform/clock";
import { insertReports } from "../store/reports";
import { ImReports } from "./reports";

/**
 * Retention of the SDKs' data reports: the purge deletes what the server received more than
 * IM_SDK_REPORTS_RETENTION_DAYS ago by its clock, in bounded batches, and keeps the rest.
 *
 * On PostgreSQL the test servers share one database, so the purges here keep their cutoff before the real
 * time: the rows they delete are only this file's back-dated ones, never other files' fresh reports. Each
 * test after the first lives a year further back than the one before, so its purges cannot reach the rows
 * the earlier tests kept.
 */
const DAY_MS = 86_400_000;
const RETENTION_DAYS = 7;

let im: ImTest;
beforeAll(async () => {
  im = await startImTest({ IM_SDK_REPORTS_RETENTION_DAYS: String(RETENTION_DAYS) });
});
afterAll(async () => {
  await im.close();
});

/** A clock of the test's own, `yearsBack` years before the server's, that the test may move. */
function clockYearsBack(yearsBack: number): ManualClock {
  return new ManualClock(im.t.clock.now().getTime() - yearsBack * 365 * DAY_MS);
}

/** The test server's reports service on another clock. */
function reportsAt(clock: ManualClock): ImReports {
  return new ImReports({ ...im.t.app.im.services.deps, clock });
}

/** Stores `count` reports of `username`, received `daysAgo` days before `now`; `tag` marks them in the body. */
async function received(username: string, now: number, daysAgo: number, count: number, tag: string): Promise<void> {
  const rows = Array.from({ length: count }, (_, n) => ({
    username,
    appId: "a#b",
    biz: "im",
    debug: false,
    eventId: 9675,
    body: { tag, n },
    sentAt: new Date(now),
  }));
  await insertReports(im.t.ctx.database.db, rows, new Date(now - daysAgo * DAY_MS));
}

/** How many reports of `username` carry each tag. */
async function tagsOf(username: string): Promise<Record<string, number>> {
  const rows = await im.t.ctx.database.db
    .selectFrom("im_sdk_reports")
    .select("body")
    .where("username", "=", username)
    .execute();
  const counts: Record<string, number> = {};
  for (const r of rows) {
    const tag = String(r.body.tag);
    counts[tag] = (counts[tag] ?? 0) + 1;
  }
  return counts;
}

describe("data-report retention", () => {
  it("deletes reports older than the configured days and keeps the newer ones and the boundary", async () => {
    const u = await im.user("ret");
    const now = im.t.clock.now().getTime();
    await received(u.name, now, RETENTION_DAYS + 1, 2, "old");
    await received(u.name, now, RETENTION_DAYS, 1, "boundary");
    await received(u.name, now, RETENTION_DAYS - 1, 1, "recent");
    await received(u.name, now, 0, 1, "today");

    expect(await im.t.app.im.services.reports.purgeExpired()).toBe(2);
    expect(await tagsOf(u.name)).toEqual({ boundary: 1, recent: 1, today: 1 });
  });

  it("follows the clock: a report passes out of retention when time moves on", async () => {
    const u = await im.user("ret");
    const clock = clockYearsBack(1);
    await received(u.name, clock.now().getTime(), RETENTION_DAYS - 1, 1, "recent");
    const reports = reportsAt(clock);
    expect(await reports.purgeExpired()).toBe(0);
    expect(await tagsOf(u.name)).toEqual({ recent: 1 });

    clock.advance(2 * 86_400);
    expect(await reports.purgeExpired()).toBe(1);
    expect(await tagsOf(u.name)).toEqual({});
  });

  it("deletes in batches until a batch comes back short, also when the rows fill whole batches", async () => {
    const u = await im.user("ret");
    const clock = clockYearsBack(2);
    const now = clock.now().getTime();
    const reports = reportsAt(clock);
    await received(u.name, now, 30, 25, "old");
    await received(u.name, now, 1, 3, "recent");
    // 25 rows with 10 a statement: three statements, the last short.
    expect(await reports.purgeExpired(10)).toBe(25);
    expect(await tagsOf(u.name)).toEqual({ recent: 3 });

    await received(u.name, now, 30, 20, "old");
    // 20 rows: two full statements, then an empty one ends the loop.
    expect(await reports.purgeExpired(10)).toBe(20);
    expect(await reports.purgeExpired(10)).toBe(0);
    expect(await tagsOf(u.name)).toEqual({ recent: 3 });
  });

  it("refuses a batch size that would never end the loop", async () => {
    const reports = im.t.app.im.services.reports;
    await expect(reports.purgeExpired(0)).rejects.toThrow(/at least 1, got 0/);
    await expect(reports.purgeExpired(2.5)).rejects.toThrow(/at least 1, got 2.5/);
  });
});
