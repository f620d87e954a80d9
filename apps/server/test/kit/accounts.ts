import { randomInt, randomUUID } from "node:crypto";
import type { Caller } from "./call";

/**
 * Accounts through the API, over any transport (kit/call.ts): the codes the dev outbox "sent", a merchant
 * registered and logged in. The server tests' harness re-exports these; imports nothing of the server.
 */
export const uniqueEmail = (label = "user") => `${label}-${randomUUID().slice(0, 12)}@example.com`;
/**
 * A mainland mobile number no other test in the run holds. Test files share one PostgreSQL database, each
 * with its own clock, so a number reused across files meets another file's codes (and their resend limit).
 */
export const uniquePhone = (prefix = "13") =>
  `${prefix}${String(randomInt(0, 10 ** (11 - prefix.length))).padStart(11 - prefix.length, "0")}`;
export const STRONG_PASSWORD = "Tessera#2026";

/** The last code the local adapter "sent" to an address. */
export async function lastCode(t: Caller, to: string): Promise<string> {
  const res = await t.call<{ list: { body: string }[] }>(
    "GET",
    `/api/dev/outbox?to=${encodeURIComponent(to)}&pageSize=20`,
  );
  const body = res.body.data.list[0]?.body ?? "";
  const code = /\b(\d{6})\b/.exec(body)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}

export interface RegisteredMerchant {
  email: string;
  token: string;
  merchantId: string;
  userId: string;
}

/** Registers a merchant through the API and logs in; returns its email, ids and token. */
export async function registerMerchant(
  t: Caller,
  options: {
    version?: "domestic" | "international";
    country?: string;
    currency?: "USD" | "HKD";
    orgName?: string;
  } = {},
): Promise<RegisteredMerchant> {
  const email = uniqueEmail("merchant");
  const version = options.version ?? "domestic";
  await t.call("POST", "/api/card-user/sendEmail", { body: { email, scene: "register" } });
  const reg = await t.call<{ userId: string; merchantId: string }>("POST", "/api/card-user/register", {
    body: {
      email,
      emailCode: await lastCode(t, email),
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      orgName: options.orgName ?? "Acme Trading Ltd",
      version,
      ...(version === "international" && { country: options.country ?? "HK", currency: options.currency ?? "USD" }),
    },
  });
  if (reg.body.code !== 1) throw new Error(`register failed: ${reg.body.msg}`);
  const login = await t.call<{ token: string }>("POST", "/api/card-user/login", {
    body: { email, password: STRONG_PASSWORD, version },
  });
  if (login.body.code !== 1) throw new Error(`login failed: ${login.body.msg}`);
  return { email, token: login.body.data.token, merchantId: reg.body.data.merchantId, userId: reg.body.data.userId };
}
