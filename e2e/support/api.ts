import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { documentPng } from "./images";
import { E2E_OPERATOR } from "./operator";

/** Helpers that talk to the server directly: codes from the dev outbox, accounts made through the API. */

export const PASSWORD = "Tessera#2026";

let counter = 0;
export function uniqueEmail(prefix: string): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}${counter}@example.com`;
}

interface Envelope<T> {
  code: number;
  data: T;
  msg: string;
}

async function json<T>(res: { json(): Promise<unknown> }): Promise<Envelope<T>> {
  return (await res.json()) as Envelope<T>;
}

/** The newest verification code sent to `to`, read from GET /api/dev/outbox (waits until it arrives). */
export async function readCode(request: APIRequestContext, to: string): Promise<string> {
  let code = "";
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        const body = await json<{ list: { body: string }[] }>(res);
        // The newest message that is a code (a gift's SMS carries a link whose port and token have digits too).
        const message = body.data.list.find((m) => /验证码|驗證碼|code/i.test(m.body));
        code = /\b(\d{4,8})\b/.exec(message?.body ?? "")?.[1] ?? "";
        return code;
      },
      { message: `a code for ${to} in the dev outbox` },
    )
    .not.toBe("");
  return code;
}

export interface Account {
  email: string;
  password: string;
  merchantId: string;
  version: "domestic" | "international";
}

/** Registers an account through the API with a code read from the outbox. */
export async function registerAccount(
  request: APIRequestContext,
  options: {
    email?: string;
    version?: "domestic" | "international";
    orgName?: string;
    country?: string;
    currency?: "USD" | "HKD";
  } = {},
): Promise<Account> {
  const version = options.version ?? "domestic";
  const email = options.email ?? uniqueEmail(version === "international" ? "intl" : "buyer");
  const sent = await request.post("/api/card-user/sendEmail", { data: { email, scene: "register" } });
  expect((await json(sent)).code).toBe(1);
  const emailCode = await readCode(request, email);
  const res = await request.post("/api/card-user/register", {
    data: {
      email,
      emailCode,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      orgName: options.orgName ?? (version === "international" ? "Harbour Digital Ltd." : "星河数字科技有限公司"),
      version,
      ...(version === "international" ? { country: options.country ?? "HK", currency: options.currency ?? "HKD" } : {}),
    },
  });
  const body = await json<{ merchantId: string }>(res);
  expect(body.code, body.msg).toBe(1);
  return { email, password: PASSWORD, merchantId: body.data.merchantId, version };
}

/** Logs in through the API and returns the token. */
export async function loginToken(request: APIRequestContext, account: Account): Promise<string> {
  const res = await request.post("/api/card-user/login", {
    data: { email: account.email, password: account.password, version: account.version },
  });
  const body = await json<{ token: string }>(res);
  expect(body.code, body.msg).toBe(1);
  return body.data.token;
}

/** Puts a session into the browser's storage the way the login dialog does. */
export async function useSession(page: Page, account: Account, token: string): Promise<void> {
  await page.goto(account.version === "international" ? "/international/INlogin" : "/login");
  await page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [
    account.version === "international" ? "interToken" : "x-auth-token",
    token,
  ] as const);
}

/** Picks the interface language the way a user does: the header's language switch. */
export async function switchLanguage(page: Page, name: "简体中文" | "繁體中文" | "English"): Promise<void> {
  // The login dialog opens with an animation and takes focus, which can close a menu opened during it:
  // retry until the switch shows the chosen language, as a user would click again.
  await expect(async () => {
    await page.getByTestId("lang-switch").click();
    await page.getByRole("menuitem", { name }).click({ timeout: 2_000 });
    await expect(page.getByTestId("lang-switch")).toHaveText(name, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * From the login dialog to the register dialog, as a user would: waits for the login dialog to finish
 * opening (its email field ready) and clicks "register now" again if the first click fell into the
 * opening animation. Returns the register dialog.
 */
export async function openRegisterFromLogin(page: Page, registerLinkText: string, registerTitle: string) {
  const dialog = page.locator(".ant-modal").filter({ hasText: registerTitle });
  await expect(async () => {
    const login = page
      .locator(".ant-modal")
      .filter({ has: page.locator("#email") })
      .first();
    if (!(await dialog.isVisible())) {
      await expect(login.locator("#email")).toBeEditable({ timeout: 2_000 });
      await login.getByText(registerLinkText).click({ timeout: 2_000 });
    }
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  return dialog;
}

/** A call with a merchant token that must succeed; its data. */
export async function apiCall<T>(
  request: APIRequestContext,
  token: string,
  method: "get" | "post" | "put",
  url: string,
  data?: unknown,
): Promise<T> {
  const res = await request[method](url, { headers: { "x-auth-token": token }, ...(data !== undefined && { data }) });
  const body = await json<T>(res);
  expect(body.code, `${url}: ${body.msg}`).toBe(1);
  return body.data;
}

let signingPhone = 0;

/**
 * Real-name verification through the API as the Authentication page and the operator do it (docking,
 * purchase applications and orders need it, spec 01 §6): three document images, the confirmed fields,
 * the operator's approval. Does nothing for a merchant already verified.
 */
export async function verifyRealName(
  request: APIRequestContext,
  token: string,
  fields: { companyName?: string; legalIdNumber?: string } = {},
): Promise<void> {
  const info = await apiCall<{ state: string; latest: { state: string } | null }>(
    request,
    token,
    "get",
    "/api/card-brander/realNameInfo",
  );
  if (info.state === "verified") return;
  // Verified under its own name: the company name becomes the merchant's name, which journeys look for.
  const me = await apiCall<{ merchant: { name: string } | null }>(request, token, "get", "/api/card-user/userInfo");
  const docs: Record<string, string> = {};
  for (const kind of ["license", "id_front", "id_back"] as const) {
    const res = await request.post(`/api/card-user/realNameAuths/images?kind=${kind}`, {
      headers: { "x-auth-token": token },
      multipart: { file: { name: `${kind}.png`, mimeType: "image/png", buffer: documentPng() } },
    });
    docs[kind] = (await json<{ documentId: string }>(res)).data.documentId;
  }
  const applied = await apiCall<{ latest: { id: string } }>(request, token, "post", "/api/card-user/realNameAuths", {
    licenseDocumentId: docs.license,
    idFrontDocumentId: docs.id_front,
    idBackDocumentId: docs.id_back,
    companyName: fields.companyName ?? me.merchant?.name ?? "星河数字科技有限公司",
    licenseNumber: "91310000MA1FL4XQ2K",
    licenseValidUntil: "",
    legalName: "张伟",
    legalIdNumber: fields.legalIdNumber ?? "11010519491231002X",
    idValidUntil: "",
  });
  const login = await json<{ token: string }>(
    await request.post("/api/card-user/login", { data: { ...E2E_OPERATOR, version: "domestic" } }),
  );
  await apiCall(request, login.data.token, "post", `/api/ops/queues/realName/items/${applied.latest.id}/approve`, {});
}

/** A purchaser docked with a supplier as the docking pages would do it: applied, approved, signed by both with SMS codes. */
export async function dock(
  request: APIRequestContext,
  supplier: { token: string; merchantId: string },
  buyerToken: string,
): Promise<string> {
  for (const token of [supplier.token, buyerToken]) await verifyRealName(request, token);
  const docking = await apiCall<{ id: string }>(request, buyerToken, "post", "/api/card-user/abutment/brander/apply", {
    supplierId: supplier.merchantId,
  });
  await apiCall(request, supplier.token, "post", `/api/card-user/abutment/brander/review/${docking.id}`, {
    approve: true,
  });
  for (const token of [supplier.token, buyerToken]) {
    const phone = `13${String(Date.now() * 10 + ++signingPhone).slice(-9)}`;
    await apiCall(request, token, "post", "/api/card-user/sendSms", { phone, scene: "signAgreement" });
    await apiCall(request, token, "post", `/api/card-user/abutment/brander/confirm/${docking.id}`, {
      phone,
      verifyCode: await readCode(request, phone),
    });
  }
  return docking.id;
}
