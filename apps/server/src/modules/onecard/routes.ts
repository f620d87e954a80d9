import {
  customerInfo,
  customerLoginReply,
  customerLoginReq,
  customerSmsReq,
  envelope,
  ocActivatePreview,
  ocActivatePreviewReq,
  ocActivateReply,
  ocActivateReq,
  ocBagReply,
  ocBalance,
  ocBatch,
  ocBatchCardQuery,
  ocBatchPage,
  ocBatchQuery,
  ocBatchReq,
  ocBindReq,
  ocCard,
  ocCardNoField,
  ocCardPage,
  ocCardQuery,
  ocCheckReq,
  ocExtractionPage,
  ocExtractReq,
  ocGift,
  ocGiftPage,
  ocGiftReq,
  ocHoldReply,
  ocHoldReq,
  ocMovePage,
  ocOrder,
  ocOrderPage,
  ocProduct,
  ocProductPage,
  ocProductQuery,
  ocProductReq,
  ocPurchaseReq,
  ocRechargeReq,
  ocServedExtractionQuery,
  ocServedExtractionPage,
  ocSalesOrderQuery,
  ocSalesOrderPage,
  ocGiftQuery,
  ocPackagePage,
  ocPackageReq,
  ocPackage,
  ocPackageSendReq,
  ocPackageSendReply,
  ocClaimLinkReq,
  cardProductQuery,
  ocEquityPage,
  ocEquityQuery,
  ocRedeemReq,
  ocReport,
  ocReportQuery,
  ocResetPwdReq,
  ocResetPwdSmsReq,
  ocReturn,
  ocReturnPage,
  ocReturnReq,
  ocSale,
  ocSalePage,
  pageQuery,
  sendCodeReply,
} from "@tessera/contracts";
import { CODE } from "@tessera/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { AppError, tooMany } from "../../platform/http/errors";
import {
  addressOf,
  failureLimit,
  limitedCheck,
  useRateLimit,
  type RateLimitDeps,
} from "../../platform/http/rate-limit";
import { ADDRESS_FAILURES, ADDRESS_WINDOW_MINUTES } from "../accounts";
import { sendXlsx } from "../../platform/http/export";
import { customerOf, customerTokenOf, type CustomersService } from "./customers.service";
import type { EquityOrders } from "./equity.service";
import type { GiftPackages } from "./packages.service";
import { reportColumns, salesOrderColumns, type CardSalesOrders, type ServedExtractions } from "./reports.service";
import type { OnecardService } from "./service";

const tags = ["onecard"];
const security = [{ authToken: [] }];
const idParam = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const BRAND_PAGES = ["business/FaceValueCard", "business/DiscountCard", "business/GuideCard", "business/CardMall"];
const SALE_PAGES = [
  "sale/OneCardMall",
  "sale/OneCardPurchase",
  "sale/BuyRecord",
  "sale/ActivateCard",
  "sale/OnlineCardAccount",
  "sale/CardReturnRecord",
  "sale/Tikatan",
  "sale/GiftCard",
  "sale/GiftReceiveRecord",
  "sale/GiftPackage",
  "sale/OneCardReport",
  "sale/CardSalesOrder",
  "sale/oneCardQuery",
];

/** Brand side (/api/card-brander): card products, batches and redemption at the brand's stores. */
export function brandRoutes({ onecard, guard }: { onecard: OnecardService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    // The brand's own staff only: a provider's brand token reads the card products (below), nothing else.
    const pre = guard({ roles: ["business"], menu: BRAND_PAGES, brandToken: false });
    // The brand's face value and discount cards as its own pages list them and, with a brand token, the
    // provider's brand-context pages FaceValueCardP and DiscountCardP (the token's menus are the brand's).
    app.get(
      "/cardProducts",
      {
        schema: {
          tags,
          security,
          summary: "The brand's face value cards or discount cards (also with a brand token)",
          querystring: cardProductQuery,
          response: { 200: envelope(ocProductPage) },
        },
        preHandler: guard({ roles: ["business"], menu: ["business/FaceValueCard", "business/DiscountCard"] }),
      },
      async (req) => {
        const { kind, ...rest } = req.query;
        return ok(
          await onecard.issuing.products(actorOf(req), {
            ...rest,
            kind: kind === "faceValue" ? "face_value" : "discount",
          }),
        );
      },
    );
    app.get(
      "/onecard/products",
      {
        schema: {
          tags,
          security,
          summary: "The brand's card products",
          querystring: ocProductQuery,
          response: { 200: envelope(ocProductPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.products(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/products",
      {
        schema: {
          tags,
          security,
          summary: "Define a card product",
          body: ocProductReq,
          response: { 200: envelope(ocProduct) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.createProduct(actorOf(req), req.body)),
    );
    app.put(
      "/onecard/products/:id",
      {
        schema: {
          tags,
          security,
          summary: "Change a card product",
          params: idParam,
          body: ocProductReq,
          response: { 200: envelope(ocProduct) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.updateProduct(actorOf(req), req.params.id, req.body)),
    );
    app.put(
      "/onecard/products/:id/onSale",
      {
        schema: {
          tags,
          security,
          summary: "Put a card product on or off sale",
          params: idParam,
          body: z.strictObject({ onSale: z.boolean() }),
          response: { 200: envelope(ocProduct) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.setOnSale(actorOf(req), req.params.id, req.body.onSale)),
    );
    app.get(
      "/onecard/batches",
      {
        schema: {
          tags,
          security,
          summary: "Issued batches",
          querystring: ocBatchQuery,
          response: { 200: envelope(ocBatchPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.batches(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/batches/:id/cards",
      {
        schema: {
          tags,
          security,
          summary: "A batch's cards (numbers masked)",
          params: idParam,
          querystring: ocBatchCardQuery,
          response: { 200: envelope(ocCardPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.batchCards(actorOf(req), req.params.id, req.query)),
    );
    app.post(
      "/onecard/batches",
      {
        schema: {
          tags,
          security,
          summary: "Issue a batch of cards",
          body: ocBatchReq,
          response: { 200: envelope(ocBatch) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.issueBatch(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/redeem",
      {
        schema: {
          tags,
          security,
          summary: "Redeem from a card in one step",
          body: ocRedeemReq,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.redeem(actorOf(req), req.body, null, req.lang)),
    );
    app.post(
      "/onecard/holds",
      {
        schema: {
          tags,
          security,
          summary: "Hold part of a card's balance",
          body: ocHoldReq,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.hold(actorOf(req), req.body, null, req.lang)),
    );
    app.put(
      "/onecard/holds/:id/capture",
      {
        schema: {
          tags,
          security,
          summary: "Capture a hold",
          params: idParam,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.settleHold(actorOf(req), req.params.id, "capture")),
    );
    app.put(
      "/onecard/holds/:id/release",
      {
        schema: {
          tags,
          security,
          summary: "Release a hold",
          params: idParam,
          response: { 200: envelope(ocHoldReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.redemption.settleHold(actorOf(req), req.params.id, "release")),
    );
  };
}

const EXTRACT_HEADERS = {
  cn: ["卡号", "卡密码", "卡种", "面值", "币种"],
  tw: ["卡號", "卡密碼", "卡種", "面值", "幣種"],
  en: ["Card number", "Password", "Product", "Face value", "Currency"],
} as const;

/** Purchaser side (/api/card-user): buy, list, activate, return, extract, gift and report cards. */
export function purchaserRoutes({
  onecard,
  packages,
  salesOrders,
  guard,
}: {
  onecard: OnecardService;
  packages: GiftPackages;
  salesOrders: CardSalesOrders;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: SALE_PAGES });
    app.get(
      "/onecard/mall",
      {
        schema: {
          tags,
          security,
          summary: "Card products on sale",
          querystring: ocProductQuery,
          response: { 200: envelope(ocProductPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.mall(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/purchase",
      {
        schema: {
          tags,
          security,
          summary: "Buy cards (paid from SUP)",
          body: ocPurchaseReq,
          response: { 200: envelope(ocSale) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.purchase(actorOf(req), req.body)),
    );
    app.get(
      "/onecard/sales",
      {
        schema: {
          tags,
          security,
          summary: "Card purchases",
          querystring: pageQuery,
          response: { 200: envelope(ocSalePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.sales(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/cards",
      {
        schema: {
          tags,
          security,
          summary: "Cards the purchaser bought",
          querystring: ocCardQuery,
          response: { 200: envelope(ocCardPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.cards(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/lookup",
      {
        schema: {
          tags,
          security,
          summary: "One of the purchaser's cards by number",
          querystring: z.object({ cardNo: ocCardNoField }),
          response: { 200: envelope(ocCard) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.lookup(actorOf(req), req.query.cardNo)),
    );
    app.post(
      "/onecard/activate",
      {
        schema: {
          tags,
          security,
          summary: "Activate cards (all or nothing)",
          body: ocActivateReq,
          response: { 200: envelope(ocActivateReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.activate(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/activate/preview",
      {
        schema: {
          tags,
          security,
          summary:
            "What an activation would do (cards, price paid, face value), before it is confirmed; changes nothing",
          body: ocActivatePreviewReq,
          response: { 200: envelope(ocActivatePreview) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.issuing.activationPreview(actorOf(req), req.body)),
    );
    app.get(
      "/onecard/returns",
      {
        schema: {
          tags,
          security,
          summary: "Card returns",
          querystring: pageQuery,
          response: { 200: envelope(ocReturnPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.returns(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/returns",
      {
        schema: {
          tags,
          security,
          summary: "Return unactivated cards for a refund",
          body: ocReturnReq,
          response: { 200: envelope(ocReturn) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.returnCards(actorOf(req), req.body)),
    );
    app.post(
      "/onecard/extract",
      {
        schema: {
          tags,
          security,
          summary: "Extract cards: numbers and passwords as xlsx (audited)",
          body: ocExtractReq,
        },
        preHandler: pre,
      },
      async (req, reply) => {
        const rows = await onecard.sales.extract(actorOf(req), req.body.cardIds);
        const h = EXTRACT_HEADERS[req.lang];
        return sendXlsx(
          reply,
          `cards-${Date.now()}`,
          [
            { header: h[0], value: (r: (typeof rows)[number]) => r.no, width: 22 },
            { header: h[1], value: (r) => r.password, width: 18 },
            { header: h[2], value: (r) => r.product, width: 24 },
            { header: h[3], value: (r) => r.faceValue / 100 },
            { header: h[4], value: (r) => r.currency },
          ],
          [rows],
        );
      },
    );
    app.get(
      "/onecard/extractions",
      {
        schema: {
          tags,
          security,
          summary: "Extractions (who saw which cards)",
          querystring: pageQuery,
          response: { 200: envelope(ocExtractionPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.extractions(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/gifts",
      {
        schema: {
          tags,
          security,
          summary: "Gifts sent (by package too)",
          querystring: ocGiftQuery,
          response: { 200: envelope(ocGiftPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.gifts(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/giftPackages",
      {
        schema: {
          tags,
          security,
          summary: "Gift packages",
          querystring: pageQuery,
          response: { 200: envelope(ocPackagePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await packages.list(actorOf(req), req.query)),
    );
    app.post(
      "/onecard/giftPackages",
      {
        schema: {
          tags,
          security,
          summary: "Define a gift package",
          body: ocPackageReq,
          response: { 200: envelope(ocPackage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await packages.create(actorOf(req), req.body)),
    );
    app.delete(
      "/onecard/giftPackages/:id",
      {
        schema: {
          tags,
          security,
          summary: "Archive a gift package",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: pre,
      },
      async (req) => {
        await packages.archive(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.post(
      "/onecard/giftPackages/:id/send",
      {
        schema: {
          tags,
          security,
          summary: "Send a gift package to phones and by links",
          params: idParam,
          body: ocPackageSendReq,
          response: { 200: envelope(ocPackageSendReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await packages.send(actorOf(req), req.params.id, req.body, req.lang)),
    );
    app.post(
      "/onecard/gifts",
      {
        schema: {
          tags,
          security,
          summary: "Give activated cards to a phone number",
          body: ocGiftReq,
          response: { 200: envelope(ocGift) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.gift(actorOf(req), req.body, req.lang)),
    );
    app.get(
      "/onecard/report",
      {
        schema: {
          tags,
          security,
          summary: "Card sales report",
          querystring: ocReportQuery,
          response: { 200: envelope(ocReport) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.sales.report(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/report/export",
      { schema: { tags, security, summary: "Card sales report as xlsx", querystring: ocReportQuery }, preHandler: pre },
      async (req, reply) => {
        const report = await onecard.sales.report(actorOf(req), req.query);
        return sendXlsx(reply, `one-card-report-${req.query.dimension}`, reportColumns(req.lang), [report.rows]);
      },
    );
    app.get(
      "/onecard/salesOrders",
      {
        schema: {
          tags,
          security,
          summary: "Card sales orders and what became of their cards",
          querystring: ocSalesOrderQuery,
          response: { 200: envelope(ocSalesOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await salesOrders.page(actorOf(req), req.query)),
    );
    app.get(
      "/onecard/salesOrders/export",
      {
        schema: { tags, security, summary: "Card sales orders as xlsx", querystring: ocSalesOrderQuery },
        preHandler: pre,
      },
      async (req, reply) =>
        sendXlsx(reply, "card-sales-orders", salesOrderColumns(req.lang), salesOrders.pages(actorOf(req), req.query)),
    );
  };
}

/** A wrong card number or password, or a card locked by them: a guess that counts toward the per-address limit. */
const cardGuessFailed = (err: unknown) =>
  err instanceof AppError && (err.messageKey === "onecard.cardUnknown" || err.code === CODE.ACCOUNT_LOCKED);
/** A wrong, used or expired verification code (or a reset naming an unknown card). */
const codeGuessFailed = (err: unknown) =>
  err instanceof AppError && (err.code === CODE.CODE_INVALID || err.messageKey === "onecard.cardUnknown");

/**
 * The per-address failure limits of the card pages, the merchant login's (accounts/service.ts
 * ADDRESS_FAILURES in ADDRESS_WINDOW_MINUTES, on @fastify/rate-limit, shared through Redis): one for card
 * passwords, one for SMS codes. Beside them the card's own lock and the card service's per-client throttle
 * stay; this one holds across server processes.
 */
async function credentialLimits(app: FastifyInstance, deps: RateLimitDeps) {
  await useRateLimit(app, deps);
  const window = { max: ADDRESS_FAILURES, timeWindowMs: ADDRESS_WINDOW_MINUTES * 60_000, key: addressOf };
  const cards = failureLimit(app, { name: "card:address", ...window });
  const codes = failureLimit(app, { name: "code:address", ...window });
  const refusal = () => tooMany("error.tooManyRequests");
  return {
    card: <T>(req: FastifyRequest, check: () => Promise<T>) =>
      limitedCheck(req, cards, cardGuessFailed, refusal, check),
    code: <T>(req: FastifyRequest, check: () => Promise<T>) =>
      limitedCheck(req, codes, codeGuessFailed, refusal, check),
  };
}

/** Public card calls (/api/card-public): balance query, card charter, reset password by SMS. */
export function publicRoutes({
  onecard,
  customers,
  rateLimitDeps,
}: {
  onecard: OnecardService;
  customers: CustomersService;
  rateLimitDeps: RateLimitDeps;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const limits = await credentialLimits(app, rateLimitDeps);
    app.post(
      "/onecard/balance",
      {
        schema: {
          tags,
          summary: "A card's balance by number and password",
          body: ocCheckReq,
          response: { 200: envelope(ocBalance) },
        },
      },
      async (req) =>
        ok(
          await limits.card(req, () =>
            onecard.redemption.balance(req.body.cardNo, req.body.password, req.ip, req.lang),
          ),
        ),
    );
    app.get(
      "/onecard/charter/:id",
      {
        schema: {
          tags,
          summary: "The terms of a card product",
          params: idParam,
          response: { 200: envelope(ocProduct) },
        },
      },
      async (req) => ok(await onecard.issuing.charter(req.params.id)),
    );
    // The reset code goes only to the logged-in customer whose card bag holds the card, and the reply names
    // no phone: a card number alone must neither text its holder nor reveal their number.
    app.post(
      "/onecard/resetPwd/sms",
      {
        schema: {
          tags,
          security: [{ customerToken: [] }],
          summary: "Send a reset code to the logged-in customer's phone for a card in their bag",
          body: ocResetPwdSmsReq,
          response: { 200: envelope(sendCodeReply) },
        },
        preHandler: customers.guard(),
      },
      async (req) =>
        ok(await limits.card(req, () => onecard.bag.sendResetCode(customerOf(req), req.body.cardNo, req.lang))),
    );
    app.post(
      "/onecard/resetPwd",
      {
        schema: {
          tags,
          summary: "Set a new card password: with the code (customer session) or the current password",
          body: ocResetPwdReq,
          response: { 200: envelope(z.object({ reset: z.literal(true) })) },
        },
      },
      async (req) => {
        const token = customerTokenOf(req);
        const customer = token ? await customers.authenticate(token) : null;
        const proof = { customer, client: req.ip, lang: req.lang };
        // A current password is a card check (its limits); a code is a code check.
        const reset = () => onecard.bag.resetPassword(req.body, proof);
        return ok(await (req.body.currentPassword !== undefined ? limits.card(req, reset) : limits.code(req, reset)));
      },
    );
  };
}

/** Service provider (/api/card-servicer): TikaOrder, the extractions of the purchasers it serves. */
export function providerRoutes({
  extractions,
  guard,
}: {
  extractions: ServedExtractions;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: "providers/TikaOrder" });
    app.get(
      "/onecard/extractions",
      {
        schema: {
          tags,
          security,
          summary: "Card extractions of the purchasers served",
          querystring: ocServedExtractionQuery,
          response: { 200: envelope(ocServedExtractionPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await extractions.page(actorOf(req), req.query)),
    );
  };
}

/** End-customer calls (/api/mall): login with an SMS code, then the card bag with the customer token. */
export function customerRoutes({
  onecard,
  equities,
  customers,
  rateLimitDeps,
}: {
  onecard: OnecardService;
  equities: EquityOrders;
  customers: CustomersService;
  rateLimitDeps: RateLimitDeps;
}): FastifyPluginAsyncZod {
  return async (app) => {
    const limits = await credentialLimits(app, rateLimitDeps);
    const pre = customers.guard();
    const csec = [{ customerToken: [] }];
    app.post(
      "/customer/sendSms",
      {
        schema: {
          tags,
          summary: "Send a login code to a phone",
          body: customerSmsReq,
          response: { 200: envelope(sendCodeReply) },
        },
      },
      async (req) => ok(await customers.sendLoginCode(req.body.phone, req.lang)),
    );
    app.post(
      "/customer/login",
      {
        schema: {
          tags,
          summary: "Customer login by phone and code",
          body: customerLoginReq,
          response: { 200: envelope(customerLoginReply) },
        },
      },
      async (req) => ok(await limits.code(req, () => customers.login(req.body.phone, req.body.smsCode))),
    );
    app.put(
      "/customer/logout",
      {
        schema: { tags, security: csec, summary: "End the customer session", response: { 200: envelope(z.null()) } },
        preHandler: pre,
      },
      async (req) => {
        const token = customerTokenOf(req);
        if (token) await customers.logout(token);
        return ok(null);
      },
    );
    app.get(
      "/customer/info",
      {
        schema: { tags, security: csec, summary: "The logged-in customer", response: { 200: envelope(customerInfo) } },
        preHandler: pre,
      },
      (req) => {
        const c = customerOf(req);
        return ok({ id: String(c.id), phone: c.phone });
      },
    );
    app.get(
      "/onecard/bag",
      {
        schema: {
          tags,
          security: csec,
          summary: "The customer's cards and gifts waiting",
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.bag(customerOf(req))),
    );
    app.post(
      "/onecard/gifts/claimByLink",
      {
        schema: {
          tags,
          security: csec,
          summary: "Claim a gift by its link",
          body: ocClaimLinkReq,
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.claimByLink(customerOf(req), req.body.token)),
    );
    app.post(
      "/onecard/gifts/:id/claim",
      {
        schema: {
          tags,
          security: csec,
          summary: "Claim a gift into the card bag",
          params: idParam,
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.claimGift(customerOf(req), req.params.id)),
    );
    app.post(
      "/onecard/bind",
      {
        schema: {
          tags,
          security: csec,
          summary: "Put a card into the card bag (number and password)",
          body: ocBindReq,
          response: { 200: envelope(ocBagReply) },
        },
        preHandler: pre,
      },
      async (req) =>
        ok(
          await limits.card(req, () =>
            onecard.bag.bind(customerOf(req), req.body.cardNo, req.body.password, req.ip, req.lang),
          ),
        ),
    );
    app.get(
      "/onecard/moves",
      {
        schema: {
          tags,
          security: csec,
          summary: "Balance changes of the customer's cards",
          querystring: pageQuery,
          response: { 200: envelope(ocMovePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await onecard.bag.moves(customerOf(req), req.query)),
    );
    app.get(
      "/onecard/orders",
      {
        schema: {
          tags,
          security: csec,
          summary: "Orders paid by card",
          querystring: pageQuery,
          response: { 200: envelope(ocOrderPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await equities.orders(customerOf(req), req.query, req.lang)),
    );
    app.get(
      "/onecard/equities",
      {
        schema: {
          tags,
          security: csec,
          summary: "Equities a card can pay for",
          querystring: ocEquityQuery,
          response: { 200: envelope(ocEquityPage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await equities.offers(customerOf(req), req.query)),
    );
    app.post(
      "/onecard/recharge",
      {
        schema: {
          tags,
          security: csec,
          summary: "Pay for an equity with a card (the brand's purchase order)",
          body: ocRechargeReq,
          response: { 200: envelope(ocOrder) },
        },
        preHandler: pre,
      },
      async (req) => ok(await equities.recharge(customerOf(req), req.body, req.lang)),
    );
  };
}
