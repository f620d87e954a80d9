import ExcelJS from "exceljs";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";
import { withTx } from "../../db/tx";
import { checkInvariants, post } from "../ledger";

const t = useTestApp({ TOPUP_FEE_BP: "50" });
let ops: { token: string };
beforeAll(async () => {
  ops = await registerOperator(t);
});

interface Notice {
  id: string;
  state: string;
  amount: { amount: number; currency: string };
  fee: { amount: number };
  idNumber: string;
  proofUrl: string | null;
  rejectReason: string | null;
}
interface ChangePage {
  list: { increase: number; expense: number; balance: number; type: string; reason: string }[];
  total: number;
  balance: { amount: number; currency: string };
}
interface Movement {
  replayed: boolean;
  balances: { reserve: { amount: number }; sup: { amount: number } };
}

let keySeq = 0;
const key = () => `req-${Date.now()}-${++keySeq}`;

function topUpBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: 100_000,
    payerType: "company",
    payerName: "Blue Sky Trading Co",
    idNumber: "91440300MA5FXXXX1B",
    otherAccount: "6222020200112233",
    transferRef: "TRX-20261123-001",
    confirmed: true,
    requestKey: key(),
    ...overrides,
  };
}

async function pngImage(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
}

function multipart(field: string, filename: string, data: Buffer, type: string) {
  const boundary = "----tessera-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function submit(token: string, body: Record<string, unknown>) {
  return t.call<Notice>("POST", "/api/card-user/funds/topups", { token, body });
}

describe("top-up notices", () => {
  it("shows the platform bank account in the merchant's currency; international ones get the Hong Kong reserve account", async () => {
    const cn = await registerMerchant(t);
    const res = await t.call<{ accountNumber: string; currency: string; swift: string | null; feeBasisPoints: number }>(
      "GET",
      "/api/card-user/funds/bank",
      { token: cn.token },
    );
    expect(res.body.code).toBe(1);
    expect(res.body.data).toMatchObject({ currency: "CNY", swift: null, feeBasisPoints: 50 });
    const intl = await registerMerchant(t, { version: "international", currency: "HKD" });
    const hk = await t.call<{ currency: string; swift: string | null; bankAddress: string }>(
      "GET",
      "/api/card-user/funds/bank",
      { token: intl.token },
    );
    expect(hk.body.data.currency).toBe("HKD");
    expect(hk.body.data.swift).toMatch(/^[A-Z]{6}/);
    expect(hk.body.data.bankAddress).toContain("Hong Kong");
  });

  it("files a notice with a proof image; the operator confirms it and the reserve account is credited less the fee", async () => {
    const buyer = await registerMerchant(t);
    const { payload, contentType } = multipart("file", "proof.png", await pngImage(), "image/png");
    const up = await t.app.inject({
      method: "POST",
      url: "/api/card-user/funds/proofs",
      headers: { "x-auth-token": buyer.token, "content-type": contentType },
      payload,
    });
    expect(up.statusCode).toBe(200);
    const proofId = up.json<{ data: { proofId: string } }>().data.proofId;

    const filed = await submit(
      buyer.token,
      topUpBody({ proofId, payerType: "personal", payerName: "张三", idNumber: "11010519491231002x" }),
    );
    expect(filed.body.code).toBe(1);
    expect(filed.body.data.state).toBe("pending");
    expect(filed.body.data.idNumber).toBe("1101**********002X");
    expect(filed.body.data.proofUrl).toBe(`/api/card-user/funds/proofs/${proofId}`);

    // The purchaser and operators can see the proof; another merchant cannot.
    const own = await t.app.inject({
      method: "GET",
      url: filed.body.data.proofUrl ?? "",
      headers: { "x-auth-token": buyer.token },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("image/png");
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: filed.body.data.proofUrl ?? "",
          headers: { "x-auth-token": ops.token },
        })
      ).statusCode,
    ).toBe(200);
    const other = await registerMerchant(t);
    expect(
      (
        await t.app.inject({
          method: "GET",
          url: filed.body.data.proofUrl ?? "",
          headers: { "x-auth-token": other.token },
        })
      ).statusCode,
    ).toBe(404);

    const pending = await t.call<{ list: Notice[] }>(
      "GET",
      `/api/ops/funds/topups?state=pending&merchantId=${buyer.merchantId}`,
      { token: ops.token },
    );
    expect(pending.body.data.list.map((n) => n.id)).toEqual([filed.body.data.id]);
    expect(pending.body.data.list[0]?.idNumber).toBe("11010519491231002X");

    const confirmed = await t.call<Notice>("POST", `/api/ops/funds/topups/${filed.body.data.id}/confirm`, {
      token: ops.token,
    });
    expect(confirmed.body.code).toBe(1);
    expect(confirmed.body.data).toMatchObject({ state: "confirmed", fee: { amount: 500 } });

    const info = await t.call<{ balances: { reserve: { amount: number } } }>("GET", "/api/card-user/userInfo", {
      token: buyer.token,
    });
    expect(info.body.data.balances.reserve.amount).toBe(99_500);
    const changes = await t.call<ChangePage>("GET", "/api/card-user/funds/changes?account=reserve", {
      token: buyer.token,
    });
    expect(changes.body.data.list.map((r) => [r.type, r.increase, r.expense, r.balance])).toEqual([
      ["top_up_fee", 0, 500, 99_500],
      ["top_up", 100_000, 0, 100_000],
    ]);
    expect(changes.body.data.balance.amount).toBe(99_500);

    // Confirming again, or rejecting a confirmed notice, changes nothing.
    const again = await t.call("POST", `/api/ops/funds/topups/${filed.body.data.id}/confirm`, {
      token: ops.token,
      lang: "en",
    });
    expect(again.status).toBe(409);
    expect(again.body.msg).toBe("This top-up notice has already been reviewed");
    expect(
      (
        await t.call("POST", `/api/ops/funds/topups/${filed.body.data.id}/reject`, {
          token: ops.token,
          body: { reason: "late" },
        })
      ).status,
    ).toBe(409);
    const after = await t.call<ChangePage>("GET", "/api/card-user/funds/changes", { token: buyer.token });
    expect(after.body.data.total).toBe(2);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });

  it("a rejected notice moves no money and keeps its reason", async () => {
    const buyer = await registerMerchant(t);
    const filed = await submit(buyer.token, topUpBody());
    const rejected = await t.call<Notice>("POST", `/api/ops/funds/topups/${filed.body.data.id}/reject`, {
      token: ops.token,
      body: { reason: "No such transfer received" },
    });
    expect(rejected.body.data).toMatchObject({ state: "rejected", rejectReason: "No such transfer received" });
    const mine = await t.call<{ list: Notice[] }>("GET", "/api/card-user/funds/topups", { token: buyer.token });
    expect(mine.body.data.list[0]?.state).toBe("rejected");
    const changes = await t.call<ChangePage>("GET", "/api/card-user/funds/changes", { token: buyer.token });
    expect(changes.body.data.total).toBe(0);
    const noReason = await t.call("POST", `/api/ops/funds/topups/${filed.body.data.id}/reject`, {
      token: ops.token,
      body: { reason: " " },
      lang: "en",
    });
    expect(noReason.status).toBe(400);
    expect(noReason.body.msg).toBe("Please enter the reason");
  });

  it("the same request key files one notice; a different request under that key is refused", async () => {
    const buyer = await registerMerchant(t);
    const body = topUpBody();
    const first = await submit(buyer.token, body);
    const second = await submit(buyer.token, body);
    expect(second.body.data.id).toBe(first.body.data.id);
    const changed = await submit(buyer.token, { ...body, amount: 5 });
    expect(changed.status).toBe(409);
    const list = await t.call<{ total: number }>("GET", "/api/card-user/funds/topups", { token: buyer.token });
    expect(list.body.data.total).toBe(1);
  });

  it.each([
    ["amount", { amount: undefined }, "Please enter the amount", "请输入金额", "請輸入金額"],
    [
      "amount",
      { amount: 0 },
      "The amount must be greater than 0 with at most two decimals",
      "金额须大于0，最多两位小数",
      "金額須大於0，最多兩位小數",
    ],
    ["payerType", { payerType: undefined }, "Please choose the type", "请选择类型", "請選擇類型"],
    ["payerName", { payerName: "" }, "Please enter the name", "请输入名称", "請輸入名稱"],
    [
      "idNumber",
      { payerType: "personal", payerName: "李四", idNumber: "12345" },
      "Please enter a correct national ID number (15 or 18 digits)",
      "请输入正确的身份证号（15或18位）",
      "請輸入正確的身份證號（15或18位）",
    ],
    [
      "otherAccount",
      { otherAccount: "12" },
      "Please enter a correct paying account (6-34 letters or digits)",
      "请输入正确的付款账号（6-34位字母或数字）",
      "請輸入正確的付款賬號（6-34位字母或數字）",
    ],
    [
      "confirmed",
      { confirmed: false },
      "Please confirm the details before submitting",
      "请确认信息无误后提交",
      "請確認信息無誤後提交",
    ],
  ])(
    "refuses a notice with a bad %s, in all three languages, and files nothing",
    async (_field, overrides, en, cn, tw) => {
      const buyer = await registerMerchant(t);
      for (const [lang, msg] of [
        ["en", en],
        ["cn", cn],
        ["tw", tw],
      ] as const) {
        const res = await submit(buyer.token, topUpBody(overrides));
        expect(res.status).toBe(400);
        expect(
          (
            await t.call("POST", "/api/card-user/funds/topups", {
              token: buyer.token,
              body: topUpBody(overrides),
              lang,
            })
          ).body.msg,
        ).toBe(msg);
      }
      const list = await t.call<{ total: number }>("GET", "/api/card-user/funds/topups", { token: buyer.token });
      expect(list.body.data.total).toBe(0);
    },
  );

  it("refuses a proof that is not an image, and a proof id of another merchant", async () => {
    const buyer = await registerMerchant(t);
    const bad = multipart("file", "proof.png", Buffer.from("not an image"), "image/png");
    const res = await t.app.inject({
      method: "POST",
      url: "/api/card-user/funds/proofs",
      headers: { "x-auth-token": buyer.token, "content-type": bad.contentType, lang: "en" },
      payload: bad.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ msg: string }>().msg).toContain("JPG, PNG");
    const other = await registerMerchant(t);
    const good = multipart("file", "p.png", await pngImage(), "image/png");
    const up = await t.app.inject({
      method: "POST",
      url: "/api/card-user/funds/proofs",
      headers: { "x-auth-token": other.token, "content-type": good.contentType },
      payload: good.payload,
    });
    const proofId = up.json<{ data: { proofId: string } }>().data.proofId;
    const filed = await submit(buyer.token, topUpBody({ proofId }));
    expect(filed.status).toBe(400);
  });

  it("only operators review, and merchants see only their own notices", async () => {
    const buyer = await registerMerchant(t);
    const other = await registerMerchant(t);
    const filed = await submit(buyer.token, topUpBody());
    expect(
      (await t.call("POST", `/api/ops/funds/topups/${filed.body.data.id}/confirm`, { token: buyer.token })).status,
    ).toBe(403);
    expect((await t.call("GET", "/api/ops/funds/topups", { token: buyer.token })).status).toBe(403);
    expect((await t.call("GET", "/api/ops/funds/topups")).status).toBe(401);
    const theirs = await t.call<{ total: number }>("GET", "/api/card-user/funds/topups", { token: other.token });
    expect(theirs.body.data.total).toBe(0);
    expect((await t.call("POST", "/api/ops/funds/topups/999999999/confirm", { token: ops.token })).status).toBe(404);
  });
});

describe("operator movements and reserve transfers", () => {
  it("manual credit and top-up refund need a reason, are idempotent, and never overdraw", async () => {
    const buyer = await registerMerchant(t);
    const url = (what: string) => `/api/ops/funds/merchants/${buyer.merchantId}/${what}`;
    const noReason = await t.call("POST", url("credit"), {
      token: ops.token,
      body: { amount: 1000, reason: "", requestKey: key() },
      lang: "en",
    });
    expect(noReason.body.msg).toBe("Please enter the reason");
    const body = { amount: 50_000, reason: "Bank transfer matched by hand", requestKey: key() };
    const credit = await t.call<Movement>("POST", url("credit"), { token: ops.token, body });
    expect(credit.body.data.balances.reserve.amount).toBe(50_000);
    const replay = await t.call<Movement>("POST", url("credit"), { token: ops.token, body });
    expect(replay.body.data).toMatchObject({ replayed: true, balances: { reserve: { amount: 50_000 } } });

    const tooMuch = await t.call("POST", url("topUpRefund"), {
      token: ops.token,
      body: { amount: 60_000, reason: "Refund", requestKey: key() },
      lang: "en",
    });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.msg).toBe("Insufficient balance");
    const refund = await t.call<Movement>("POST", url("topUpRefund"), {
      token: ops.token,
      body: { amount: 20_000, reason: "Refund to payer", requestKey: key() },
    });
    expect(refund.body.data.balances.reserve.amount).toBe(30_000);

    const changes = await t.call<ChangePage>("GET", "/api/card-user/funds/changes?type=manual_credit", {
      token: buyer.token,
    });
    expect(changes.body.data.list).toEqual([
      expect.objectContaining({ type: "manual_credit", increase: 50_000, reason: "Bank transfer matched by hand" }),
    ]);
    expect(
      (await t.call("POST", url("credit"), { token: buyer.token, body: { ...body, requestKey: key() } })).status,
    ).toBe(403);
    expect(
      (
        await t.call("POST", "/api/ops/funds/merchants/987654321/credit", {
          token: ops.token,
          body: { ...body, requestKey: key() },
        })
      ).status,
    ).toBe(404);
  });

  it("moves money from the reserve account to the SUP account, once per request key", async () => {
    const buyer = await registerMerchant(t);
    await t.call("POST", `/api/ops/funds/merchants/${buyer.merchantId}/credit`, {
      token: ops.token,
      body: { amount: 10_000, reason: "opening", requestKey: key() },
    });
    const body = { amount: 4_000, requestKey: key() };
    const first = await t.call<Movement>("POST", "/api/card-user/funds/reserveTransfer", { token: buyer.token, body });
    expect(first.body.data.balances).toMatchObject({ reserve: { amount: 6_000 }, sup: { amount: 4_000 } });
    const again = await t.call<Movement>("POST", "/api/card-user/funds/reserveTransfer", { token: buyer.token, body });
    expect(again.body.data).toMatchObject({ replayed: true, balances: { reserve: { amount: 6_000 } } });
    const over = await t.call("POST", "/api/card-user/funds/reserveTransfer", {
      token: buyer.token,
      body: { amount: 6_001, requestKey: key() },
      lang: "tw",
    });
    expect(over.body.msg).toBe("餘額不足");
    const sup = await t.call<ChangePage>("GET", "/api/card-user/funds/changes?account=sup", { token: buyer.token });
    expect(sup.body.data.list.map((r) => [r.type, r.increase, r.balance])).toEqual([
      ["reserve_transfer", 4_000, 4_000],
    ]);
    expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  });
});

describe("fund-change lists", () => {
  it("filter by type, amount and date, page, and export the same rows to xlsx", async () => {
    const buyer = await registerMerchant(t);
    for (const amount of [100, 2_000, 30_000]) {
      await t.call("POST", `/api/ops/funds/merchants/${buyer.merchantId}/credit`, {
        token: ops.token,
        body: { amount, reason: `credit ${amount}`, requestKey: key() },
      });
    }
    await t.call("POST", "/api/card-user/funds/reserveTransfer", {
      token: buyer.token,
      body: { amount: 1_500, requestKey: key() },
    });
    const get = (q: string) => t.call<ChangePage>("GET", `/api/card-user/funds/changes?${q}`, { token: buyer.token });
    expect((await get("")).body.data.total).toBe(4);
    expect((await get("type=reserve_transfer")).body.data.list.map((r) => r.expense)).toEqual([1_500]);
    expect((await get("minAmount=1000&maxAmount=2500")).body.data.list.map((r) => r.increase + r.expense)).toEqual([
      1_500, 2_000,
    ]);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await get(`from=${today}&to=${today}`)).body.data.total).toBe(4);
    expect((await get("from=2001-01-01&to=2001-01-31")).body.data.total).toBe(0);
    const paged = await get("pageSize=20&page=1");
    expect(paged.body.data.list).toHaveLength(4);
    expect((await get("pageSize=7")).status).toBe(400);
    const badRange = await t.call("GET", "/api/card-user/funds/changes?minAmount=10&maxAmount=5", {
      token: buyer.token,
      lang: "en",
    });
    expect(badRange.body.msg).toBe("The minimum amount cannot exceed the maximum");

    const file = await t.app.inject({
      method: "GET",
      url: "/api/card-user/funds/changes/export?minAmount=1000",
      headers: { "x-auth-token": buyer.token, lang: "en" },
    });
    expect(file.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const rows = sheet
      ?.getSheetValues()
      .slice(1)
      .map((r) => (Array.isArray(r) ? r.slice(1) : []));
    expect(rows?.[0]?.slice(1)).toEqual(["Increase", "Expense", "Balance", "Currency", "Change type", "Reason"]);
    expect(rows?.slice(1).map((r) => [r[2] ?? null, r[1] ?? null, r[5]])).toEqual([
      [15, null, "Reserve transfer"],
      [null, 300, "Manual credit"],
      [null, 20, "Manual credit"],
    ]);
  });

  it("suppliers read their income account, and nobody reads another merchant's list", async () => {
    const supplier = await registerMerchant(t);
    const res = await t.call<ChangePage>("GET", "/api/card-brander/order/fund/search", { token: supplier.token });
    expect(res.body.code).toBe(1);
    expect(res.body.data.balance.currency).toBe("CNY");
    const other = await registerMerchant(t);
    await t.call("POST", `/api/ops/funds/merchants/${other.merchantId}/credit`, {
      token: ops.token,
      body: { amount: 777, reason: "other", requestKey: key() },
    });
    const mine = await t.call<ChangePage>("GET", "/api/card-user/funds/changes", { token: supplier.token });
    expect(mine.body.data.total).toBe(0);
    expect((await t.call("GET", "/api/card-user/funds/changes?account=income&type=top_up")).status).toBe(401);
  });
});

describe("statements and settlements", () => {
  it("sum an account per day and per month: opening, in, out, closing", async () => {
    const supplier = await registerMerchant(t);
    const id = Number(supplier.merchantId);
    const move = (amount: number) =>
      withTx(t.ctx.database.db, (tx) =>
        post(tx, {
          idempotencyKey: key(),
          kind: amount > 0 ? "purchase" : "refund",
          currency: "CNY",
          postings: [
            { account: { platform: "bank_clearing" }, amount: -amount },
            { account: { merchantId: id, kind: "income" }, amount },
          ],
        }),
      );
    await move(10_000);
    await move(2_500);
    await move(-1_000);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    const daily = await t.call<{
      currency: string;
      rows: {
        period: string;
        opening: number;
        increase: number;
        expense: number;
        closing: number;
        movements: number;
      }[];
    }>("GET", `/api/card-brander/statements?from=2026-01-01&to=${today}`, { token: supplier.token });
    expect(daily.body.data.rows).toEqual([
      { period: today, opening: 0, increase: 12_500, expense: 1_000, closing: 11_500, movements: 3 },
    ]);
    const monthly = await t.call<{ rows: { period: string; closing: number }[] }>(
      "GET",
      `/api/card-brander/settlements?from=2026-01-01&to=${today}`,
      { token: supplier.token },
    );
    expect(monthly.body.data.rows).toEqual([expect.objectContaining({ period: today.slice(0, 7), closing: 11_500 })]);
    const bad = await t.call("GET", "/api/card-brander/statements?from=2026-02-01&to=2026-01-01", {
      token: supplier.token,
      lang: "en",
    });
    expect(bad.body.msg).toBe("The start date cannot be after the end date");
    const other = await registerMerchant(t);
    const theirs = await t.call<{ rows: unknown[] }>(
      "GET",
      `/api/card-brander/statements?from=2026-01-01&to=${today}`,
      { token: other.token },
    );
    expect(theirs.body.data.rows).toEqual([]);
  });
});
