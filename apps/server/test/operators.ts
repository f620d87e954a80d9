import { insertUser } from "../src/modules/accounts";
import { STRONG_PASSWORD, uniqueEmail, type TestApp } from "./harness";

/**
 * A platform operator for tests: the first-start bootstrap makes only one per database, and the
 * PostgreSQL test database is shared by every test file, so tests add their own.
 */
export async function registerOperator(t: TestApp): Promise<{ email: string; token: string; userId: number }> {
  const email = uniqueEmail("operator");
  const userId = await insertUser(t.ctx.database.db, {
    kind: "operator",
    merchantId: null,
    email,
    passwordHash: await t.ctx.hasher.hash(STRONG_PASSWORD),
  });
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email, password: STRONG_PASSWORD, version: "domestic" },
  });
  if (login.body.code !== 1) throw new Error(`operator login failed: ${login.body.msg}`);
  return { email, token: login.body.data.token, userId };
}
