import { expect, it } from "vitest";
import { lastCode, registerMerchant, STRONG_PASSWORD, uniqueEmail } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";

/** Runs on the PostgreSQL server only: PGlite runs one transaction at a time, so races cannot happen there. */
const t = useTestApp();

it("one e-mail code registers exactly one account, however many requests race with it", async () => {
  const email = uniqueEmail("race");
  await t.call("POST", "/api/card-user/sendEmail", { body: { email, scene: "register" } });
  const code = await lastCode(t, email);
  const body = {
    email,
    emailCode: code,
    password: STRONG_PASSWORD,
    confirmPassword: STRONG_PASSWORD,
    orgName: "Race Ltd",
  };
  const results = await Promise.all(
    Array.from({ length: 12 }, () => t.call("POST", "/api/card-user/register", { body })),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.every((r) => r.status < 500)).toBe(true);
  const db = t.ctx.database.db;
  const users = await db.selectFrom("users").select("merchant_id").where("email", "=", email).execute();
  expect(users).toHaveLength(1);
  const merchants = await db.selectFrom("merchants").select("id").where("name", "=", "Race Ltd").execute();
  // Losing requests rolled back their merchant rows with their transaction.
  expect(merchants.map((m) => m.id)).toEqual(users.map((u) => u.merchant_id));
});

it("concurrent failed logins are all counted", async () => {
  const m = await registerMerchant(t);
  const results = await Promise.all(
    Array.from({ length: 8 }, () =>
      t.call("POST", "/api/card-user/login", { body: { email: m.email, password: "Wrong#pass1" } }),
    ),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  const row = await t.ctx.database.db
    .selectFrom("login_throttle")
    .selectAll()
    .where("email", "=", m.email)
    .executeTakeFirstOrThrow();
  expect(row.failures).toBe(8);
  expect(row.locked_until).not.toBeNull();
});
