import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import {
  Reporter,
  REPORT_EVENT,
  REPORT_PENDING_MAX,
  type ReportEvent,
  type ReportFetch,
  type ReporterOptions,
} from "../src/reporter";

/**
 * The data reporter on fake timers with an injected fetch: batches of 10 one second apart, the headers,
 * the per-minute cap, the queue and timing caps, waiting for a token, and failures that are only counted.
 */
interface Call {
  url: string;
  headers: Record<string, string>;
  events: ReportEvent[];
}

let calls: Call[];
let reply: () => Promise<{ ok: boolean; status: number }>;
const fetchStub: ReportFetch = (url, init) => {
  calls.push({ url, headers: init.headers, events: JSON.parse(init.body) as ReportEvent[] });
  return reply();
};

function reporter(extra: Partial<ReporterOptions> = {}): Reporter {
  return new Reporter({
    url: () => "http://im.test/org/app/sdk/reports",
    token: () => "tok-1",
    appId: "org#app",
    fetch: fetchStub,
    ...extra,
  });
}

const sentIds = () => calls.flatMap((c) => c.events.map((e) => e.body.n));

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2025-03-01T10:00:00Z") });
  calls = [];
  reply = () => Promise.resolve({ ok: true, status: 200 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("batching", () => {
  test("the first batch goes 1 s after the first event, then one batch of at most 10 a second, in order", async () => {
    const r = reporter();
    for (let n = 0; n < 25; n += 1) r.add(REPORT_EVENT.OPERATION, { n });
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.events.length)).toEqual([10]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.events.length)).toEqual([10, 10]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.events.length)).toEqual([10, 10, 5]);
    expect(sentIds()).toEqual([...Array(25).keys()]);
    expect(r.sent).toBe(25);
    expect(r.pending).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(3);
  });

  test("each event is {eventId, body} with the common fields and its time", async () => {
    const r = reporter({ common: () => ({ appkey: "org#app", uid: "alice" }) });
    r.add(REPORT_EVENT.INIT, { os: 7 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls[0]?.events).toEqual([
      { eventId: 9674, body: { appkey: "org#app", uid: "alice", lts: Date.parse("2025-03-01T10:00:00Z"), os: 7 } },
    ]);
  });

  test("headers: token, appid, sendts in seconds, biz, debug; JSON to the configured URL", async () => {
    const r = reporter({ biz: "im", debug: true });
    r.add(REPORT_EVENT.OPERATION, { n: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls[0]).toMatchObject({
      url: "http://im.test/org/app/sdk/reports",
      headers: {
        "Content-Type": "application/json",
        token: "tok-1",
        appid: "org#app",
        sendts: String(Date.parse("2025-03-01T10:00:01Z") / 1000),
        biz: "im",
        debug: "true",
      },
    });
    const plain = reporter();
    plain.add(REPORT_EVENT.OPERATION, { n: 2 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls[1]?.headers).toMatchObject({ biz: "im", debug: "false" });
  });

  test("without a token the events wait, and go once there is one", async () => {
    let token = "";
    const r = reporter({ token: () => token });
    r.add(REPORT_EVENT.OPERATION, { n: 1 });
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(0);
    expect(r.pending).toBe(1);
    token = "late";
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls.map((c) => c.headers.token)).toEqual(["late"]);
  });

  test("flush sends everything queued at once", async () => {
    const r = reporter();
    for (let n = 0; n < 15; n += 1) r.add(REPORT_EVENT.OPERATION, { n });
    await r.flush();
    expect(calls.map((c) => c.events.length)).toEqual([10, 5]);
    expect(r.pending).toBe(0);
  });
});

describe("limits", () => {
  test("at most 1000 events a minute: beyond that dropped and counted, a new minute accepts again", async () => {
    const r = reporter();
    for (let n = 0; n < 1000; n += 1) r.add(REPORT_EVENT.OPERATION, { n });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(r.sent).toBe(300);
    // The queue has room again, but the minute's 1000 are used.
    for (let n = 0; n < 100; n += 1) r.add(REPORT_EVENT.OPERATION, { n: 1000 + n });
    expect(r.dropped).toBe(100);
    expect(r.pending).toBe(700);
    await vi.advanceTimersByTimeAsync(30_000);
    r.add(REPORT_EVENT.OPERATION, { n: 5000 });
    expect(r.dropped).toBe(100);
    await r.flush();
    expect(sentIds()).toEqual([...[...Array(1000).keys()], 5000]);
  });

  test("at most 1000 events wait: with the endpoint unreachable for a while, newer ones are dropped", async () => {
    let token = "";
    const r = reporter({ token: () => token });
    for (let n = 0; n < REPORT_PENDING_MAX; n += 1) r.add(REPORT_EVENT.OPERATION, { n });
    await vi.advanceTimersByTimeAsync(61_000);
    // A new minute, but the queue is full.
    for (let n = 0; n < 10; n += 1) r.add(REPORT_EVENT.OPERATION, { n: 2000 + n });
    expect(r.dropped).toBe(10);
    expect(r.pending).toBe(REPORT_PENDING_MAX);
    token = "tok";
    await r.flush();
    expect(sentIds()).toEqual([...Array(REPORT_PENDING_MAX).keys()]);
  });

  test("timed operations: at most 1000 open at once; end reports the duration and the outcome", async () => {
    const r = reporter();
    for (let n = 0; n <= REPORT_PENDING_MAX; n += 1) r.begin(`m${n}`, "SEND_MSG", "SENDMESSAGE");
    expect(r.timing).toBe(REPORT_PENDING_MAX);
    await vi.advanceTimersByTimeAsync(250);
    r.end(`m${REPORT_PENDING_MAX}`, { ok: true, code: 0 });
    r.end("m0", { ok: true, code: 0 });
    r.end("m1", { ok: false, code: 300, codeDesc: "send message timeout" });
    r.end("m1", { ok: true, code: 0 });
    expect(r.timing).toBe(REPORT_PENDING_MAX - 2);
    await r.flush();
    const reported = calls.flatMap((c) => c.events);
    expect(reported.map((e) => e.eventId)).toEqual([9675, 9675]);
    expect(reported[0]!.body).toMatchObject({
      operationName: "SEND_MSG",
      operationType: "SENDMESSAGE",
      requestElapse: 250,
      isSuccess: 1,
      code: 0,
      codeDesc: "",
    });
    expect(reported[1]!.body).toMatchObject({
      operationName: "SEND_MSG",
      requestElapse: 250,
      isSuccess: 0,
      code: 300,
      codeDesc: "send message timeout",
    });
  });

  test("a refused or failed POST is counted and not retried", async () => {
    const r = reporter();
    reply = () => Promise.resolve({ ok: false, status: 400 });
    r.add(REPORT_EVENT.OPERATION, { n: 1 });
    await vi.advanceTimersByTimeAsync(1000);
    reply = () => Promise.reject(new TypeError("fetch failed"));
    r.add(REPORT_EVENT.OPERATION, { n: 2 });
    r.add(REPORT_EVENT.OPERATION, { n: 3 });
    await vi.advanceTimersByTimeAsync(1000);
    expect(r.failed).toBe(3);
    expect(r.sent).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(2);
  });
});
