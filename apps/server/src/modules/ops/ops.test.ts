import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { submitRealName } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();
let ops: { token: string; userId: number; email: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

type Row = { merchantId: string; name: string; ownerEmail: string; realNameState: string };
type Audit = {
  id: string;
  createdAt: string;
  action: string;
  operatorId: string;
  operatorEmail: string;
  subjectId: string;
  reason: string | null;
  ip: string | null;
};

async function pendingId(merchantId: string): Promise<string> {
  const res = await t.call<{ list: { id: string }[] }>(
    "GET",
    `/api/ops/queues/realName/items?state=pending&merchantId=${merchantId}`,
    { token: ops.token },
  );
  return res.body.data.list[0]?.id ?? "";
}

describe("queues", () => {
  it("lists the registered queues with their pending counts", async () => {
    const m = await registerMerchant(t);
    await submitRealName(t, m.token);
    const res = await t.call<{ kind: string; pending: number }[]>("GET", "/api/ops/queues", { token: ops.token });
    expect(res.body.data.map((q) => q.kind)).toEqual(expect.arrayContaining(["realName", "apiPermission"]));
    expect(res.body.data.find((q) => q.kind === "realName")?.pending).toBeGreaterThanOrEqual(1);
    expect((await t.call("GET", "/api/ops/queues/noSuchQueue/items", { token: ops.token })).status).toBe(404);
  });

  it("an unknown item is 404 and changes nothing", async () => {
    expect(
      (await t.call("POST", "/api/ops/queues/realName/items/999999999/approve", { token: ops.token })).status,
    ).toBe(404);
    const log = await t.call<{ total: number }>("GET", "/api/ops/auditLog?subjectId=999999999", { token: ops.token });
    expect(log.body.data.total).toBe(0);
  });
});

describe("merchant search", () => {
  it("finds by id, name or owner e-mail and filters by state", async () => {
    const name = `Searchable ${uniqueEmail("n").slice(0, 12)}`;
    const m = await registerMerchant(t, { orgName: name });
    for (const keyword of [m.merchantId, name.slice(11), m.email.toUpperCase()]) {
      const res = await t.call<{ list: Row[]; total: number }>(
        "GET",
        `/api/ops/merchants?keyword=${encodeURIComponent(keyword)}`,
        { token: ops.token },
      );
      expect(res.body.data.list.map((r) => r.merchantId)).toContain(m.merchantId);
      expect(res.body.data.list.find((r) => r.merchantId === m.merchantId)).toMatchObject({
        name,
        ownerEmail: m.email,
        realNameState: "not_verified",
      });
    }
    const verified = await t.call<{ list: Row[] }>(
      "GET",
      `/api/ops/merchants?keyword=${m.merchantId}&realNameState=verified`,
      { token: ops.token },
    );
    expect(verified.body.data.list).toEqual([]);
    expect((await t.call("GET", "/api/ops/merchants?pageSize=7", { token: ops.token })).status).toBe(400);
  });
});

describe("audit log", () => {
  it("records each decision with operator, time, before, after, reason and address; filters and pages", async () => {
    const second = await registerOperator(t);
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    await submitRealName(t, a.token);
    await submitRealName(t, b.token);
    const idA = await pendingId(a.merchantId);
    const idB = await pendingId(b.merchantId);
    await t.call("POST", `/api/ops/queues/realName/items/${idA}/approve`, { token: ops.token });
    await t.call("POST", `/api/ops/queues/realName/items/${idB}/reject`, {
      token: second.token,
      body: { reason: "ID image unreadable" },
    });

    const bySecond = await t.call<{ list: Audit[]; total: number }>(
      "GET",
      `/api/ops/auditLog?operatorId=${second.userId}`,
      { token: ops.token },
    );
    expect(bySecond.body.data.total).toBe(1);
    expect(bySecond.body.data.list[0]).toMatchObject({
      action: "realName.reject",
      operatorEmail: second.email,
      subjectId: idB,
      reason: "ID image unreadable",
    });
    expect(bySecond.body.data.list[0]?.ip).toBeTruthy();

    const rejects = await t.call<{ list: Audit[] }>("GET", "/api/ops/auditLog?action=realName.reject", {
      token: ops.token,
    });
    expect(rejects.body.data.list.every((r) => r.action === "realName.reject")).toBe(true);

    const today = new Date(t.clock.now()).toISOString().slice(0, 10);
    const dated = await t.call<{ total: number }>(
      "GET",
      `/api/ops/auditLog?from=${today}&to=${today}&operatorId=${ops.userId}`,
      { token: ops.token },
    );
    expect(dated.body.data.total).toBeGreaterThanOrEqual(1);
    const future = await t.call<{ total: number }>("GET", "/api/ops/auditLog?from=2999-01-01", { token: ops.token });
    expect(future.body.data.total).toBe(0);

    const page1 = await t.call<{ list: Audit[]; total: number }>("GET", "/api/ops/auditLog?page=1&pageSize=20", {
      token: ops.token,
    });
    expect(page1.body.data.total).toBeGreaterThanOrEqual(2);
    // Newest first: by time (other files on this worker's database write rows on their own test clocks, so ids
    // alone are not in time order), then by id within the same instant.
    const keys = page1.body.data.list.map((r) => [Date.parse(r.createdAt), Number(r.id)] as const);
    const sorted = [...keys].sort((x, y) => y[0] - x[0] || y[1] - x[1]);
    expect(sorted).toEqual(keys);

    const xlsx = await t.app.inject({
      method: "GET",
      url: `/api/ops/auditLog/export?operatorId=${second.userId}`,
      headers: { "x-auth-token": ops.token },
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString("ascii")).toBe("PK");
  });

  it("is append-only: the database refuses to change or delete a row", async () => {
    const db = t.ctx.database.db;
    await expect(sql`update ops_audit_log set reason = 'edited'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from ops_audit_log`.execute(db)).rejects.toThrow(/append-only/);
  });

  it("refuses merchants (403) and anonymous callers (401)", async () => {
    const m = await registerMerchant(t);
    expect((await t.call("GET", "/api/ops/auditLog", { token: m.token })).status).toBe(403);
    expect((await t.call("GET", "/api/ops/auditLog/export", { token: m.token })).status).toBe(403);
    expect((await t.call("GET", "/api/ops/documents/1", { token: m.token })).status).toBe(403);
    expect(
      (await t.call("POST", "/api/ops/queues/apiPermission/items/1/reject", { body: { reason: "x" } })).status,
    ).toBe(401);
  });
});
