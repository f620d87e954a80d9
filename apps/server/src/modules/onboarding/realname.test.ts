import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { createLocalOcr } from "../../platform/adapters/ocr";
import { isoDay, RealNameService } from "./realname";
import { multipart, pngImage, submitRealName, upload, VALID_FIELDS } from "../../../test/kit/onboarding-fixtures";

const t = useTestApp();
let ops: { token: string; userId: number };
beforeAll(async () => {
  ops = await registerOperator(t);
});

const realNameState = async (token: string) =>
  (await t.call<{ merchant: { realNameState: string } }>("GET", "/api/card-user/userInfo", { token })).body.data
    .merchant.realNameState;

async function pendingItemOf(merchantId: string) {
  const res = await t.call<{
    list: { id: string; state: string; fields: Record<string, string | null>; documents: { url: string }[] }[];
  }>("GET", `/api/ops/queues/realName/items?state=pending&merchantId=${merchantId}`, { token: ops.token });
  const item = res.body.data.list[0];
  if (!item) throw new Error("no pending item");
  return item;
}

describe("documents and the OCR adapter", () => {
  it("reads a licence's text layer; an image without one yields no fields (never invented)", async () => {
    const m = await registerMerchant(t);
    const withText = await pngImage(
      "名称: Blue Harbour Trading Co\n统一社会信用代码: 91310000MA1FL4XQ2K\n法定代表人: Zhang San",
    );
    const licence = await upload(t, m.token, "license", withText);
    const read = await t.call("GET", `/api/card-user/realNameAuths/bizLicenseImageText?documentId=${licence}`, {
      token: m.token,
    });
    expect(read.body).toMatchObject({
      code: 1,
      data: {
        adapter: "local",
        recognised: true,
        fields: { companyName: "Blue Harbour Trading Co", licenseNumber: "91310000MA1FL4XQ2K", legalName: "Zhang San" },
      },
    });

    const plain = await upload(t, m.token, "id_front", await pngImage());
    const id = await t.call("GET", `/api/card-user/realNameAuths/idImageText?documentId=${plain}`, { token: m.token });
    expect(id.body).toMatchObject({ code: 1, data: { adapter: "local", recognised: false, fields: {} } });
    // A licence is not an ID: asking the ID reader for it is refused.
    expect(
      (await t.call("GET", `/api/card-user/realNameAuths/idImageText?documentId=${licence}`, { token: m.token }))
        .status,
    ).toBe(400);
  });

  it("refuses a file that is not an image, in three languages", async () => {
    const m = await registerMerchant(t);
    const mp = multipart(Buffer.from("%PDF-1.4 not an image"), "x.pdf", "application/pdf");
    const expected = {
      cn: "请上传不超过5MB的JPG、PNG、WebP或GIF图片",
      tw: "請上傳不超過5MB的JPG、PNG、WebP或GIF圖片",
      en: "Please upload a JPG, PNG, WebP or GIF image of at most 5 MB",
    };
    for (const lang of ["cn", "tw", "en"] as const) {
      const res = await t.call("POST", "/api/card-user/realNameAuths/images?kind=license", {
        token: m.token,
        lang,
        body: mp.body,
        headers: mp.headers,
      });
      expect(res.status).toBe(400);
      expect(res.body.msg).toBe(expected[lang]);
    }
  });

  it("serves a merchant's own image, and another merchant's as not found", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const img = await pngImage();
    const doc = await upload(t, a.token, "license", img);
    const own = await t.app.inject({
      method: "GET",
      url: `/api/card-user/realNameAuths/images/${doc}`,
      headers: { "x-auth-token": a.token },
    });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(img)).toBe(true);
    const other = await t.call("GET", `/api/card-user/realNameAuths/images/${doc}`, { token: b.token });
    expect(other.status).toBe(404);
    expect(
      (await t.call("GET", `/api/card-user/realNameAuths/bizLicenseImageText?documentId=${doc}`, { token: b.token }))
        .status,
    ).toBe(400);
    expect((await t.call("GET", `/api/card-user/realNameAuths/images/${doc}`)).status).toBe(401);
  });
});

describe("field confirmation (spec 01 §5 helper validators)", () => {
  const cases: [string, Record<string, string>, { cn: string; tw: string; en: string }][] = [
    [
      "ID of 16 digits",
      { legalIdNumber: "1101051949123100" },
      {
        cn: "请输入正确的身份证号（15或18位）",
        tw: "請輸入正確的身份證號（15或18位）",
        en: "Please enter a correct national ID number (15 or 18 digits)",
      },
    ],
    [
      "name with digits",
      { legalName: "Zhang3" },
      {
        cn: "姓名须为2-30个字母或汉字",
        tw: "姓名須為2-30個字母或漢字",
        en: "The name must be 2-30 letters or Chinese characters",
      },
    ],
    [
      "one-letter name",
      { legalName: "张" },
      {
        cn: "姓名须为2-30个字母或汉字",
        tw: "姓名須為2-30個字母或漢字",
        en: "The name must be 2-30 letters or Chinese characters",
      },
    ],
    [
      "licence number",
      { licenseNumber: "91-31" },
      {
        cn: "请输入正确的统一社会信用代码或注册号（5-30位字母或数字）",
        tw: "請輸入正確的統一社會信用代碼或註冊號（5-30位字母或數字）",
        en: "Please enter a correct licence or registration number (5-30 letters or digits)",
      },
    ],
  ];
  for (const [name, overrides, messages] of cases) {
    it(name, async () => {
      const m = await registerMerchant(t);
      for (const lang of ["cn", "tw", "en"] as const) {
        const img = await pngImage();
        const body = {
          licenseDocumentId: await upload(t, m.token, "license", img),
          idFrontDocumentId: await upload(t, m.token, "id_front", img),
          idBackDocumentId: await upload(t, m.token, "id_back", img),
          ...VALID_FIELDS,
          ...overrides,
        };
        const res = await t.call("POST", "/api/card-user/realNameAuths", { token: m.token, lang, body });
        expect(res.status).toBe(400);
        expect(res.body.msg).toBe(messages[lang]);
      }
      const info = await t.call<{ latest: unknown }>("GET", "/api/card-brander/realNameInfo", { token: m.token });
      expect(info.body.data.latest).toBeNull();
    });
  }

  it("accepts a 15-digit ID and refuses a validity date already passed", async () => {
    const m = await registerMerchant(t);
    const yesterday = isoDay(new Date(t.clock.now().getTime() - 86_400_000));
    const past = await submitRealName(t, m.token, { idValidUntil: yesterday });
    expect(past.status).toBe(400);
    expect((await submitRealName(t, m.token, { legalIdNumber: "110105491231002" })).body.code).toBe(1);
  });

  it("refuses another merchant's documents and a document of the wrong kind", async () => {
    const a = await registerMerchant(t);
    const b = await registerMerchant(t);
    const img = await pngImage();
    const aLicence = await upload(t, a.token, "license", img);
    const body = {
      licenseDocumentId: aLicence,
      idFrontDocumentId: await upload(t, b.token, "id_front", img),
      idBackDocumentId: await upload(t, b.token, "id_back", img),
      ...VALID_FIELDS,
    };
    expect((await t.call("POST", "/api/card-user/realNameAuths", { token: b.token, body })).status).toBe(400);
    const wrongKind = { ...body, licenseDocumentId: body.idFrontDocumentId };
    expect((await t.call("POST", "/api/card-user/realNameAuths", { token: b.token, body: wrongKind })).status).toBe(
      400,
    );
    expect(
      (await t.call<{ latest: unknown }>("GET", "/api/card-brander/realNameInfo", { token: b.token })).body.data.latest,
    ).toBeNull();
  });
});

describe("review and states", () => {
  it("submit → pending (once) → operator approves → real-named, with the verified company name", async () => {
    const m = await registerMerchant(t, { orgName: "Draft Name" });
    const sub = await submitRealName(t, m.token);
    expect(sub.body).toMatchObject({ code: 1, data: { state: "not_verified", latest: { state: "pending" } } });
    const again = await submitRealName(t, m.token);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe(1005);

    const info = await t.call<{ latest: { legalIdNumber: string; documents: { license: string } } }>(
      "GET",
      "/api/card-brander/realNameInfo",
      { token: m.token },
    );
    // Merchants see the ID number masked.
    expect(info.body.data.latest.legalIdNumber).toBe("110***********002X");

    const item = await pendingItemOf(m.merchantId);
    expect(item.fields.legalIdNumber).toBe(VALID_FIELDS.legalIdNumber);
    const docUrl = item.documents[0]?.url ?? "";
    expect(
      (await t.app.inject({ method: "GET", url: docUrl, headers: { "x-auth-token": ops.token } })).statusCode,
    ).toBe(200);
    // The merchant cannot use the operator's document URL.
    expect((await t.call("GET", docUrl, { token: m.token })).status).toBe(403);

    const approve = await t.call("POST", `/api/ops/queues/realName/items/${item.id}/approve`, { token: ops.token });
    expect(approve.body.code).toBe(1);
    expect(await realNameState(m.token)).toBe("verified");
    const profile = await t.call<{ companyName: string; legalRepresentative: string }>(
      "GET",
      "/api/card-brander/brander/profile",
      { token: m.token },
    );
    expect(profile.body.data).toMatchObject({
      companyName: VALID_FIELDS.companyName,
      legalRepresentative: VALID_FIELDS.legalName,
    });

    const twice = await t.call("POST", `/api/ops/queues/realName/items/${item.id}/approve`, { token: ops.token });
    expect(twice.status).toBe(409);

    const audit = await t.call<{
      list: {
        action: string;
        operatorId: string;
        before: { realNameState: string };
        after: { realNameState: string };
      }[];
    }>("GET", `/api/ops/auditLog?subjectType=realNameApplication&subjectId=${item.id}`, { token: ops.token });
    expect(audit.body.data.list).toHaveLength(1);
    expect(audit.body.data.list[0]).toMatchObject({
      action: "realName.approve",
      operatorId: String(ops.userId),
      before: { realNameState: "not_verified" },
      after: { realNameState: "verified" },
    });
  });

  it("reject needs a reason, which the merchant then sees; it may submit again", async () => {
    const m = await registerMerchant(t);
    await submitRealName(t, m.token);
    const item = await pendingItemOf(m.merchantId);
    const noReason = await t.call("POST", `/api/ops/queues/realName/items/${item.id}/reject`, {
      token: ops.token,
      lang: "en",
      body: { reason: " " },
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.msg).toBe("Please enter the reason for rejection");
    const reject = await t.call("POST", `/api/ops/queues/realName/items/${item.id}/reject`, {
      token: ops.token,
      body: { reason: "Licence photo is blurred" },
    });
    expect(reject.body.code).toBe(1);
    const info = await t.call<{ state: string; latest: { state: string; rejectReason: string } }>(
      "GET",
      "/api/card-brander/realNameInfo",
      { token: m.token },
    );
    expect(info.body.data).toMatchObject({
      state: "not_verified",
      latest: { state: "rejected", rejectReason: "Licence photo is blurred" },
    });
    expect((await submitRealName(t, m.token)).body.code).toBe(1);
  });

  it("the daily job expires a verification once its ID validity date has passed", async () => {
    const m = await registerMerchant(t);
    const tomorrow = isoDay(new Date(t.clock.now().getTime() + 86_400_000));
    await submitRealName(t, m.token, { idValidUntil: tomorrow, licenseValidUntil: "2099-12-31" });
    const item = await pendingItemOf(m.merchantId);
    await t.call("POST", `/api/ops/queues/realName/items/${item.id}/approve`, { token: ops.token });
    const info = await t.call<{ expiresOn: string }>("GET", "/api/card-brander/realNameInfo", { token: m.token });
    expect(info.body.data.expiresOn).toBe(tomorrow);

    // The job as the server schedules it, run here at chosen moments.
    const job = new RealNameService({
      db: t.ctx.database.db,
      clock: t.clock,
      storage: t.ctx.storage,
      ocr: createLocalOcr(),
    });
    await job.expireDue(t.clock.now());
    expect(await realNameState(m.token)).toBe("verified");
    await job.expireDue(new Date(t.clock.now().getTime() + 2 * 86_400_000));
    expect(await realNameState(m.token)).toBe("expired");
    // Idempotent: a second run changes nothing more.
    expect(await job.expireDue(new Date(t.clock.now().getTime() + 2 * 86_400_000))).toBe(0);
  });

  it("paymentAccount shows the reserve account in the merchant's currency", async () => {
    const m = await registerMerchant(t, { version: "international", currency: "HKD" });
    const res = await t.call("GET", "/api/card-user/realNameAuths/paymentAccount", { token: m.token, headers: {} });
    expect(res.body).toMatchObject({
      code: 1,
      data: {
        merchantId: m.merchantId,
        currency: "HKD",
        reserve: { amount: 0, currency: "HKD" },
        realNameState: "not_verified",
      },
    });
  });
});

describe("who may call", () => {
  it("refuses no token (401), operators on merchant calls and merchants on operator calls (403)", async () => {
    const m = await registerMerchant(t);
    expect((await t.call("GET", "/api/card-brander/realNameInfo")).status).toBe(401);
    expect((await t.call("GET", "/api/card-brander/realNameInfo", { token: ops.token })).status).toBe(403);
    for (const url of [
      "/api/ops/queues",
      "/api/ops/queues/realName/items",
      "/api/ops/merchants",
      "/api/ops/auditLog",
    ]) {
      expect((await t.call("GET", url, { token: m.token })).status).toBe(403);
      expect((await t.call("GET", url)).status).toBe(401);
    }
    expect((await t.call("POST", "/api/ops/queues/realName/items/1/approve", { token: m.token })).status).toBe(403);
  });
});
