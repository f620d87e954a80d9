import { z } from "zod";

/**
 * What the payer does next for a payment an asynchronous provider (WeChat Pay) confirms later (issue 41):
 * JSAPI's signed requestPayment parameters inside WeChat, the H5 cashier page to open in a phone's
 * browser, the Native QR code's URL to show on a desktop, or (Alipay's wap and page pay) the signed cashier
 * URL to send the browser to. The order stays unpaid until the provider's
 * notification; the client polls the order.
 */
export const paymentAction = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("jsapi"),
    params: z.object({
      appId: z.string(),
      timeStamp: z.string(),
      nonceStr: z.string(),
      package: z.string(),
      signType: z.literal("RSA"),
      paySign: z.string(),
    }),
  }),
  z.object({ kind: z.literal("h5"), url: z.string() }),
  z.object({ kind: z.literal("native"), codeUrl: z.string() }),
  z.object({ kind: z.literal("redirect"), url: z.string() }),
]);
export type PaymentActionView = z.infer<typeof paymentAction>;

/** The real payment providers a deployment offers the customer to choose from (issue 41). */
export const paymentProvider = z.enum(["wechatpay", "alipay"]);
export type PaymentProviderView = z.infer<typeof paymentProvider>;
