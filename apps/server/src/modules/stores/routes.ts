import {
  brandStoreQuery,
  clerk,
  clerkReq,
  district,
  districtPage,
  districtQuery,
  districtReq,
  envelope,
  mallCodeReq,
  qrBindReq,
  qrCode,
  qrCodePage,
  qrCodeQuery,
  qrLanding,
  storeBatchReply,
  storeBatchReq,
  storeIdsReq,
  storeImportQuery,
  storePage,
  storeQuery,
  storeReq,
  store,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FastifyRequest } from "fastify";
import QRCode from "qrcode";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { sendXlsx } from "../../platform/http/export";
import { idParam, pathId, routeDocs } from "../../platform/http/route";
import { regionTree } from "../../platform/regions";
import type { StoresService } from "./service";
import { storeRejectReport, storeTemplate, XLSX_MIME } from "./sheets";

const docs = routeDocs("stores");
const clerkParam = idParam.extend({ passportId: pathId });
/** A store file: 10,000 stores are about 1 MB as xlsx. */
const IMPORT_LIMIT_BYTES = 32 * 1024 * 1024;
export const STORE_PAGES = [
  "business/BrandStore",
  "business/brandMallCode",
  "international/business/brandMallCode",
  "providers/brandShopCode",
];

const download = (fileName: string) => `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`;
/** The address a QR code points at: this server, as the caller reached it. */
export const originOf = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

const EXPORT_HEADERS = {
  cn: [
    "门店ID",
    "门店名称",
    "省市区",
    "详细地址",
    "经度",
    "纬度",
    "营业时间",
    "联系人",
    "联系电话",
    "商圈",
    "状态",
    "店员数",
    "创建时间",
  ],
  tw: [
    "門店ID",
    "門店名稱",
    "省市區",
    "詳細地址",
    "經度",
    "緯度",
    "營業時間",
    "聯絡人",
    "聯絡電話",
    "商圈",
    "狀態",
    "店員數",
    "建立時間",
  ],
  en: [
    "Store ID",
    "Store name",
    "Region",
    "Address",
    "Longitude",
    "Latitude",
    "Opening hours",
    "Contact",
    "Contact phone",
    "Business district",
    "State",
    "Clerks",
    "Created",
  ],
} as const;
const STATE_TEXT = {
  cn: { open: "营业", closed: "停业" },
  tw: { open: "營業", closed: "停業" },
  en: { open: "Open", closed: "Closed" },
} as const;

/** The brand owner's store calls (spec 01 §7), mounted under /api/card-brander. */
export function storeBrandRoutes({ stores, guard }: { stores: StoresService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.addContentTypeParser(
      [XLSX_MIME, "application/octet-stream"],
      { parseAs: "buffer", bodyLimit: IMPORT_LIMIT_BYTES },
      (_req, body, done) => done(null, body),
    );
    const pre = guard({ roles: ["business", "providers"], menu: STORE_PAGES });
    const districtPre = guard({
      roles: ["business", "providers", "sale"],
      menu: ["business/BrandStore", "sale/BusinessDistrict"],
    });

    app.get(
      "/branderStores",
      {
        schema: {
          ...docs,
          summary: "The brand's stores",
          querystring: storeQuery,
          response: { 200: envelope(storePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.list(actorOf(req), req.query)),
    );
    app.get(
      "/branderStores/export",
      {
        schema: {
          ...docs,
          summary: "The brand's stores as xlsx",
          querystring: storeQuery.omit({ page: true, pageSize: true }),
        },
        preHandler: pre,
      },
      async (req, reply) => {
        const h = EXPORT_HEADERS[req.lang];
        const st = STATE_TEXT[req.lang];
        return sendXlsx(
          reply,
          "stores",
          [
            { header: h[0], value: (s) => s.id },
            { header: h[1], width: 28, value: (s) => s.name },
            { header: h[2], width: 28, value: (s) => s.region },
            { header: h[3], width: 36, value: (s) => s.address },
            { header: h[4], value: (s) => s.lng },
            { header: h[5], value: (s) => s.lat },
            { header: h[6], value: (s) => s.openingHours },
            { header: h[7], value: (s) => s.contactName },
            { header: h[8], value: (s) => s.contactPhone },
            { header: h[9], value: (s) => s.districtName },
            { header: h[10], value: (s) => st[s.state] },
            { header: h[11], value: (s) => s.clerks },
            { header: h[12], value: (s) => s.createdAt },
          ],
          stores.allStores(actorOf(req), req.query),
        );
      },
    );
    app.get(
      "/branderStores/template",
      { schema: { ...docs, summary: "The store import template (xlsx)" }, preHandler: pre },
      async (req, reply) =>
        reply
          .header("content-type", XLSX_MIME)
          .header("content-disposition", download("store-template.xlsx"))
          .send(await storeTemplate(req.lang)),
    );
    app.post(
      "/branderStores",
      {
        schema: { ...docs, summary: "Add a store", body: storeReq, response: { 200: envelope(store) } },
        preHandler: pre,
      },
      async (req) => ok(await stores.create(actorOf(req), req.body)),
    );
    app.put(
      "/branderStores/:id",
      {
        schema: {
          ...docs,
          summary: "Change a store",
          params: idParam,
          body: storeReq,
          response: { 200: envelope(store) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.update(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/branderStores",
      {
        schema: {
          ...docs,
          summary:
            "Delete stores (refused while they have unsettled redemptions or open payments on their collection codes; their codes are retired)",
          body: storeIdsReq,
          response: { 200: envelope(z.object({ deleted: z.number().int() })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.remove(actorOf(req), req.body.storeIds)),
    );
    app.post(
      "/branderStores/batch",
      {
        schema: {
          ...docs,
          summary: "Add many stores: good rows are added, bad rows reported",
          body: storeBatchReq,
          response: { 200: envelope(storeBatchReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.batch(actorOf(req), req.body.stores, req.lang)),
    );
    app.post(
      "/branderStores/import",
      {
        schema: {
          ...docs,
          summary: "Import stores: the body is the xlsx file, its name in ?fileName=",
          querystring: storeImportQuery,
          response: { 200: envelope(storeBatchReply) },
        },
        preHandler: pre,
      },
      async (req) => {
        const body: unknown = req.body;
        if (!Buffer.isBuffer(body) || !/\.xlsx$/i.test(req.query.fileName)) throw invalid("stores.fileType", "file");
        return ok(await stores.importFile(actorOf(req), body, req.query.fileName, req.lang));
      },
    );
    app.get(
      "/branderStores/imports/:id/rejects",
      {
        schema: { ...docs, summary: "The reject report of a store import (xlsx)", params: idParam },
        preHandler: pre,
      },
      async (req, reply) => {
        const rows = await stores.rejectsOf(actorOf(req), req.params.id);
        return reply
          .header("content-type", XLSX_MIME)
          .header("content-disposition", download(`store-rejects-${req.params.id}.xlsx`))
          .send(await storeRejectReport(req.lang, rows));
      },
    );

    app.get(
      "/branderStores/:id/clerks",
      {
        schema: {
          ...docs,
          summary: "A store's clerks",
          params: idParam,
          response: { 200: envelope(z.array(clerk)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.clerks.list(actorOf(req), req.params.id)),
    );
    app.post(
      "/branderStores/:id/clerks",
      {
        schema: {
          ...docs,
          summary: "Bind a sub-account to the store as a clerk",
          params: idParam,
          body: clerkReq,
          response: { 200: envelope(z.array(clerk)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.clerks.bind(actorOf(req), req.params.id, Number(req.body.passportId))),
    );
    app.delete(
      "/branderStores/:id/clerks/:passportId",
      {
        schema: {
          ...docs,
          summary: "Unbind a clerk",
          params: clerkParam,
          response: { 200: envelope(z.array(clerk)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.clerks.unbind(actorOf(req), req.params.id, req.params.passportId)),
    );

    app.get(
      "/storeDistricts",
      {
        schema: {
          ...docs,
          summary: "Business districts",
          querystring: districtQuery,
          response: { 200: envelope(districtPage) },
        },
        preHandler: districtPre,
      },
      async (req) => ok(await stores.districts.list(actorOf(req), req.query)),
    );
    app.post(
      "/storeDistricts",
      {
        schema: {
          ...docs,
          summary: "Add a business district",
          body: districtReq,
          response: { 200: envelope(district) },
        },
        preHandler: districtPre,
      },
      async (req) => ok(await stores.districts.save(actorOf(req), null, req.body)),
    );
    app.put(
      "/storeDistricts/:id",
      {
        schema: {
          ...docs,
          summary: "Change a business district",
          params: idParam,
          body: districtReq,
          response: { 200: envelope(district) },
        },
        preHandler: districtPre,
      },
      async (req) => ok(await stores.districts.save(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/storeDistricts/:id",
      {
        schema: {
          ...docs,
          summary: "Delete a business district without stores",
          params: idParam,
          response: { 200: envelope(z.object({ deleted: z.literal(true) })) },
        },
        preHandler: districtPre,
      },
      async (req) => ok(await stores.districts.remove(actorOf(req), req.params.id)),
    );

    app.post(
      "/qrCodes/bind",
      {
        schema: {
          ...docs,
          summary: "The store's shop code (made once)",
          body: qrBindReq,
          response: { 200: envelope(qrCode) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.codes.bindShopCode(actorOf(req), Number(req.body.storeId), originOf(req))),
    );
    app.get(
      "/qrCodes",
      {
        schema: {
          ...docs,
          summary: "The brand's QR codes",
          querystring: qrCodeQuery,
          response: { 200: envelope(qrCodePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.codes.list(actorOf(req), req.query, originOf(req))),
    );
    app.get(
      "/qrCodes/:id/png",
      { schema: { ...docs, summary: "A QR code as a PNG image", params: idParam }, preHandler: pre },
      async (req, reply) => {
        const code = await stores.codes.get(actorOf(req), req.params.id, originOf(req));
        const png = await QRCode.toBuffer(code.url, { type: "png", width: 600, margin: 2, errorCorrectionLevel: "M" });
        return reply
          .header("content-type", "image/png")
          .header("content-disposition", download(`qr-${code.kind}-${code.id}.png`))
          .send(png);
      },
    );
    app.get(
      "/mallCodes",
      {
        schema: {
          ...docs,
          summary: "The brand's mall codes",
          querystring: qrCodeQuery.omit({ kind: true }),
          response: { 200: envelope(qrCodePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.codes.list(actorOf(req), { ...req.query, kind: "mall" }, originOf(req))),
    );
    app.post(
      "/mallCodes",
      {
        schema: { ...docs, summary: "Make a mall code", body: mallCodeReq, response: { 200: envelope(qrCode) } },
        preHandler: pre,
      },
      async (req) => ok(await stores.codes.createMallCode(actorOf(req), req.body, originOf(req))),
    );
    app.delete(
      "/mallCodes/:id",
      {
        schema: {
          ...docs,
          summary: "Retire a mall code",
          params: idParam,
          response: { 200: envelope(z.object({ deleted: z.literal(true) })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.codes.deleteMallCode(actorOf(req), req.params.id)),
    );
  };
}

/** AssociatedStores (/api/card-user): the stores of the suppliers a purchaser is docked with. */
export function storeSaleRoutes({ stores, guard }: { stores: StoresService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: ["sale/AssociatedStores"] });
    app.get(
      "/associatedStores",
      {
        schema: {
          ...docs,
          summary: "Stores of the suppliers you are docked with",
          querystring: brandStoreQuery,
          response: { 200: envelope(storePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.associated(actorOf(req), req.query)),
    );
  };
}

/** VisitorStore (/api/card-servicer): the stores of a brand the provider serves. */
export function storeServicerRoutes({ stores, guard }: { stores: StoresService; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["providers"], menu: ["providers/VisitorStore"] });
    app.get(
      "/visitorStores",
      {
        schema: {
          ...docs,
          summary: "Stores of a brand you serve",
          querystring: brandStoreQuery,
          response: { 200: envelope(storePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await stores.visiting(actorOf(req), req.query)),
    );
  };
}

const county = z.object({ value: z.string(), label: z.string() });
const regionTreeReply = z.array(
  z.object({ value: z.string(), label: z.string(), children: z.array(county.extend({ children: z.array(county) })) }),
);

/** What a scanned QR code opens, and the region tree store forms choose from (/api/store-public, no login). */
export function storePublicRoutes({ stores }: { stores: StoresService }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.get(
      "/regions",
      {
        schema: {
          tags: docs.tags,
          summary: "Provinces, cities and counties (GB/T 2260)",
          response: { 200: envelope(regionTreeReply) },
        },
      },
      async (_req, reply) => {
        void reply.header("cache-control", "public, max-age=86400");
        return ok(regionTree());
      },
    );
    app.get(
      "/qr/:token",
      {
        schema: {
          tags: docs.tags,
          summary: "What a store's QR code opens",
          params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{8,40}$/, { error: "stores.codeNotFound" }) }),
          response: { 200: envelope(qrLanding) },
        },
      },
      async (req) => ok(await stores.codes.landing(req.params.token)),
    );
  };
}
