import { CourierError, md5Upper, parsePush, type CourierAdapter, type ParsedPush, type WaybillRequest } from "./shared";

/** The Kuaidi100 adapter. `fetchFn` is the HTTP client (the tests pass a recorder). */
export class Kuaidi100Courier implements CourierAdapter {
  readonly kind = "kuaidi100" as const;
  constructor(
    private readonly cfg: { customer: string; key: string; secret: string; salt: string; callbackUrl: string },
    private readonly fetchFn: typeof fetch = fetch,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private async form(url: string, fields: Record<string, string>): Promise<unknown> {
    const res = await this.fetchFn(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new Error(`kuaidi100 answered ${res.status} without JSON`);
    }
  }

  /** The e-waybill order's form: `method=order`, key, t, sign = MD5(param + t + key + secret), param. */
  labelOrderForm(req: WaybillRequest): Record<string, string> {
    const param = JSON.stringify({
      kuaidicom: req.companyCode,
      recMan: req.recipient,
      sendMan: req.sender,
      cargo: req.cargo,
      weight: String(req.weightKg),
      count: 1,
      printType: "NON",
      orderId: req.orderNo,
      callBackUrl: this.cfg.callbackUrl,
      salt: this.cfg.salt,
      needSubscribe: true,
      resultv2: "1",
    });
    const t = String(this.now().getTime());
    return { method: "order", key: this.cfg.key, t, sign: md5Upper(param + t + this.cfg.key + this.cfg.secret), param };
  }

  /** The subscription form: schema=json, param {company, number, key, parameters {callbackurl, salt, resultv2, phone}}. */
  subscribeForm(companyCode: string, waybillNo: string, phone: string): Record<string, string> {
    return {
      schema: "json",
      param: JSON.stringify({
        company: companyCode,
        number: waybillNo,
        key: this.cfg.key,
        parameters: { callbackurl: this.cfg.callbackUrl, salt: this.cfg.salt, resultv2: "1", phone },
      }),
    };
  }

  /** The real-time query form: customer, sign = MD5(param + key + customer), param {com, num, phone, resultv2}. */
  queryForm(companyCode: string, waybillNo: string, phone: string): Record<string, string> {
    const param = JSON.stringify({ com: companyCode, num: waybillNo, phone, resultv2: "1" });
    return { customer: this.cfg.customer, sign: md5Upper(param + this.cfg.key + this.cfg.customer), param };
  }

  async createWaybill(req: WaybillRequest): Promise<{ waybillNo: string }> {
    if (req.waybillNo) {
      const sub = (await this.form(
        "https://poll.kuaidi100.com/poll",
        this.subscribeForm(req.companyCode, req.waybillNo, req.recipient.mobile),
      )) as { result?: boolean; returnCode?: string; message?: string };
      // 501: already subscribed, which is what we want.
      if (!sub.result && sub.returnCode !== "501") {
        throw new CourierError(sub.message ?? `subscription refused (${sub.returnCode ?? "?"})`);
      }
      return { waybillNo: req.waybillNo };
    }
    const reply = (await this.form("https://api.kuaidi100.com/label/order", this.labelOrderForm(req))) as {
      result?: boolean;
      returnCode?: string;
      message?: string;
      data?: { kuaidinum?: string };
    };
    const no = reply.data?.kuaidinum;
    if (!reply.result || !no) throw new CourierError(reply.message ?? `order refused (${reply.returnCode ?? "?"})`);
    return { waybillNo: no };
  }

  /** A real-time query answers in the push's lastResult shape. */
  async query(companyCode: string, waybillNo: string, phone: string): Promise<ParsedPush | undefined> {
    const reply = await this.form(
      "https://poll.kuaidi100.com/poll/query.do",
      this.queryForm(companyCode, waybillNo, phone),
    );
    return parsePush(JSON.stringify({ status: "polling", lastResult: reply }));
  }
}
