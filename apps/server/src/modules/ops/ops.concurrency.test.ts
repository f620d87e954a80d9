import { describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { submitRealName, upload, pngImage, VALID_FIELDS } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();

describe("reviews under contention (PostgreSQL)", () => {
  it("two operators deciding one item at once: exactly one decision and one audit row", async () => {
    const [a, b] = [await registerOperator(t), await registerOperator(t)];
    const m = await registerMerchant(t);
    await submitRealName(t, m.token);
    const list = await t.call<{ list: { id: string }[] }>(
      "GET",
      `/api/ops/queues/realName/items?state=pending&merchantId=${m.merchantId}`,
      { token: a.token },
    );
    const id = list.body.data.list[0]?.id ?? "";
    const results = await Promise.all([
      t.call("POST", `/api/ops/queues/realName/items/${id}/approve`, { token: a.token }),
      t.call("POST", `/api/ops/queues/realName/items/${id}/reject`, { token: b.token, body: { reason: "race" } }),
      t.call("POST", `/api/ops/queues/realName/items/${id}/approve`, { token: b.token }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const audit = await t.call<{ total: number }>(
      "GET",
      `/api/ops/auditLog?subjectType=realNameApplication&subjectId=${id}`,
      { token: a.token },
    );
    expect(audit.body.data.total).toBe(1);
  });

  it("simultaneous submissions leave one application under review", async () => {
    const m = await registerMerchant(t);
    const img = await pngImage();
    const body = {
      licenseDocumentId: await upload(t, m.token, "license", img),
      idFrontDocumentId: await upload(t, m.token, "id_front", img),
      idBackDocumentId: await upload(t, m.token, "id_back", img),
      ...VALID_FIELDS,
    };
    const results = await Promise.all(
      Array.from({ length: 4 }, () => t.call("POST", "/api/card-user/realNameAuths", { token: m.token, body })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
  });

  it("simultaneous API requests leave one pending", async () => {
    const m = await registerMerchant(t);
    await t.ctx.database.db
      .updateTable("merchants")
      .set({ real_name_state: "verified" })
      .where("id", "=", Number(m.merchantId))
      .execute();
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        t.call("POST", "/api/card-brander/api/apply", { token: m.token, body: { purpose: "p" } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});
