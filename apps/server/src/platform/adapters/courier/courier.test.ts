import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { beijingTime, Kuaidi100Courier, mainState, parsePush, pushSign, simulatedPush, SIM_TRACE } from "./index";
import { combinations } from "../../../modules/commerce/commodities.service";
import { freightOf } from "../../../modules/commerce/orders.service";

const md5 = (s: string) => createHash("md5").update(s).digest("hex").toUpperCase();
const cfg = {
  customer: "C0FFEE0000000000000000000000TEST",
  key: "TestKey123",
  secret: "TestSecret456",
  salt: "s4lt",
  callbackUrl: "https://shop.example.com/api/ecommerce/express/push",
};

/** Replies recorded in the shapes of Kuaidi100's documentation. */
const RECORDED = {
  labelOrder: {
    result: true,
    returnCode: "200",
    message: "提交成功",
    data: { taskId: "7A2C4B", kuaidicom: "shunfeng", kuaidinum: "SF1400000000001", eOrder: "" },
  },
  labelOrderRefused: { result: false, returnCode: "30002", message: "电子面单余额不足" },
  poll: { result: true, returnCode: "200", message: "提交成功" },
  pollAgain: { result: false, returnCode: "501", message: "重复订阅" },
  query: {
    message: "ok",
    nu: "YT9693083639795",
    ischeck: "1",
    com: "yuantong",
    status: "200",
    condition: "F00",
    state: "3",
    data: [
      {
        time: "2026-11-18 14:20:01",
        ftime: "2026-11-18 14:20:01",
        context: "您的快件已签收，签收人：本人",
        status: "签收",
        statusCode: "301",
        areaName: "浙江,杭州市,西湖区",
      },
      {
        time: "2026-11-18 08:10:44",
        ftime: "2026-11-18 08:10:44",
        context: "快件正在派送中",
        status: "派件",
        statusCode: "5",
      },
      {
        time: "2026-11-17 22:01:03",
        ftime: "2026-11-17 22:01:03",
        context: "快件已到达杭州转运中心",
        status: "在途",
        statusCode: "1001",
      },
      {
        time: "2026-11-17 10:00:00",
        ftime: "2026-11-17 10:00:00",
        context: "圆通快递员已揽收",
        status: "揽收",
        statusCode: "103",
      },
    ],
  },
};

function recorder(replies: unknown[]) {
  const calls: { url: string; form: Record<string, string> }[] = [];
  const fetchFn: typeof fetch = (url, init) => {
    const body = init?.body;
    calls.push({
      url: url instanceof Request ? url.url : url.toString(),
      form: Object.fromEntries(new URLSearchParams(typeof body === "string" ? body : "")),
    });
    return Promise.resolve(
      new Response(JSON.stringify(replies.shift() ?? {}), {
        status: 200,
        headers: { "content-type": "application/json" },
      }),
    );
  };
  return { calls, fetchFn };
}

describe("Kuaidi100 adapter", () => {
  it("orders an e-waybill signed MD5(param + t + key + secret) and reads the waybill number", async () => {
    const rec = recorder([RECORDED.labelOrder]);
    const k = new Kuaidi100Courier(cfg, rec.fetchFn, () => new Date(1_764_000_000_000));
    const { waybillNo } = await k.createWaybill({
      companyCode: "shunfeng",
      orderNo: "CM1",
      recipient: { name: "Li Lei", mobile: "13800138000", printAddr: "浙江省 杭州市 西湖区 文三路1号" },
      sender: { name: "Tee Brand", mobile: "", printAddr: "" },
      cargo: "goods",
      weightKg: 1,
    });
    expect(waybillNo).toBe("SF1400000000001");
    const call = rec.calls[0];
    expect(call?.url).toBe("https://api.kuaidi100.com/label/order");
    expect(call?.form).toMatchObject({ method: "order", key: "TestKey123", t: "1764000000000" });
    expect(call?.form.sign).toBe(md5(`${call?.form.param ?? ""}1764000000000TestKey123TestSecret456`));
    expect(JSON.parse(call?.form.param ?? "{}")).toMatchObject({
      kuaidicom: "shunfeng",
      recMan: { mobile: "13800138000" },
      callBackUrl: cfg.callbackUrl,
      salt: "s4lt",
      printType: "NON",
    });
  });

  it("a refused e-waybill is a courier error with its message", async () => {
    const k = new Kuaidi100Courier(cfg, recorder([RECORDED.labelOrderRefused]).fetchFn);
    await expect(
      k.createWaybill({
        companyCode: "shunfeng",
        orderNo: "CM2",
        recipient: { name: "a", mobile: "1", printAddr: "x" },
        sender: { name: "b", mobile: "", printAddr: "" },
        cargo: "goods",
        weightKg: 1,
      }),
    ).rejects.toThrow("电子面单余额不足");
  });

  it("subscribes an existing waybill (schema=json, salted callback); 'already subscribed' is fine", async () => {
    const rec = recorder([RECORDED.poll, RECORDED.pollAgain]);
    const k = new Kuaidi100Courier(cfg, rec.fetchFn);
    const req = {
      companyCode: "yuantong",
      orderNo: "CM3",
      waybillNo: "YT9693083639795",
      recipient: { name: "a", mobile: "13800138000", printAddr: "x" },
      sender: { name: "b", mobile: "", printAddr: "" },
      cargo: "goods",
      weightKg: 1,
    };
    expect((await k.createWaybill(req)).waybillNo).toBe("YT9693083639795");
    expect((await k.createWaybill(req)).waybillNo).toBe("YT9693083639795");
    expect(rec.calls[0]?.url).toBe("https://poll.kuaidi100.com/poll");
    expect(rec.calls[0]?.form.schema).toBe("json");
    expect(JSON.parse(rec.calls[0]?.form.param ?? "{}")).toEqual({
      company: "yuantong",
      number: "YT9693083639795",
      key: "TestKey123",
      parameters: { callbackurl: cfg.callbackUrl, salt: "s4lt", resultv2: "1", phone: "13800138000" },
    });
  });

  it("queries signed MD5(param + key + customer) and reads the trace oldest first", async () => {
    const rec = recorder([RECORDED.query]);
    const k = new Kuaidi100Courier(cfg, rec.fetchFn);
    const trace = await k.query("yuantong", "YT9693083639795", "13800138000");
    const call = rec.calls[0];
    expect(call?.url).toBe("https://poll.kuaidi100.com/poll/query.do");
    expect(call?.form.customer).toBe(cfg.customer);
    expect(call?.form.sign).toBe(md5(`${call?.form.param ?? ""}TestKey123${cfg.customer}`));
    expect(trace?.events.map((e) => e.state)).toEqual([1, 0, 5, 3]);
    expect(trace?.events[3]?.at.toISOString()).toBe("2026-11-18T06:20:01.000Z");
    expect(trace?.state).toBe(3);
  });
});

describe("pushes and the simulator", () => {
  it("push signature, sub-state codes and company correction", () => {
    expect(pushSign("{}", "salt")).toBe(md5("{}salt"));
    expect([
      mainState("103", 9),
      mainState("1001", 9),
      mainState("301", 9),
      mainState("501", 9),
      mainState("14", 9),
      mainState(undefined, 9),
    ]).toEqual([1, 0, 3, 5, 14, 9]);
    const corrected = parsePush(
      JSON.stringify({
        status: "polling",
        autoCheck: "1",
        comOld: "yunda",
        comNew: "zhongtong",
        lastResult: { state: "0", com: "yunda", nu: "123456", data: [] },
      }),
    );
    expect(corrected?.correctedCompany).toBe("zhongtong");
    expect(parsePush("not json")).toBeUndefined();
    expect(parsePush(JSON.stringify({ lastResult: { nu: 1 } }))).toBeUndefined();
    expect(beijingTime("2026-11-26 08:00:00")?.toISOString()).toBe("2026-11-26T00:00:00.000Z");
    expect(beijingTime("2026-13-26 08:00:00")).toBeUndefined();
  });

  it("the simulator's pushes are Kuaidi100 pushes the parser reads back, ending in the scripted outcome", () => {
    const sim = {
      waybill_no: "SH1",
      company_code: "shunfeng",
      outcome: "refused" as const,
      step_seconds: 60,
      created_at: new Date("2026-11-26T00:00:00Z"),
    };
    const all = simulatedPush(sim, SIM_TRACE.refused.length);
    expect(all.status).toBe("shutdown");
    const parsed = parsePush(JSON.stringify(all));
    expect(parsed?.events.map((e) => e.state)).toEqual([1, 0, 5, 14]);
    expect(parsed?.events[0]?.at.toISOString()).toBe("2026-11-26T00:01:00.000Z");
    expect(simulatedPush(sim, 2).status).toBe("polling");
  });

  it("SKUs are the combinations of the specification groups; freight follows the template", () => {
    expect(
      combinations([
        { name: "Colour", values: ["Red", "Blue"] },
        { name: "Size", values: ["M", "L"] },
      ]),
    ).toEqual([
      ["Red", "M"],
      ["Red", "L"],
      ["Blue", "M"],
      ["Blue", "L"],
    ]);
    expect(combinations([])).toEqual([[]]);
    const tpl = [{ freight_first: 800, freight_extra: 200, free_over: 20_000 }];
    expect(freightOf(tpl, 10_000, 600)).toBe(800);
    expect(freightOf(tpl, 10_000, 2_500)).toBe(1_200);
    expect(freightOf(tpl, 20_000, 2_500)).toBe(0);
  });
});
