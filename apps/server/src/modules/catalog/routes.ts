import {
  brand,
  brandReq,
  branderReply,
  cardTypesReply,
  childReq,
  costReply,
  envelope,
  goods,
  goodsReq,
  goodsStateReq,
  goodsUpdateReq,
  idParam,
  imageReply,
  insupplyUpdateReq,
  merchandise,
  merchandiseFilters,
  merchandiseQuery,
  pageOf,
  productSearchQuery,
  servedGoodsQuery,
  SELECTION_TYPES,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { acceptMultipart, readMultipart } from "../../platform/http/multipart";
import { sendXlsx } from "../../platform/http/export";
import { routeDocs } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import { goodsExportColumns } from "./export";
import { provider, purchaser, supplier } from "./policy";
import type { CatalogService } from "./service";

const docs = routeDocs("catalog");
const nothing = envelope(z.null());
const IMAGE_LIMIT = 5 * 1024 * 1024;
/**
 * Big pages (up to 1000 goods) are written with plain JSON.stringify: the presenters build exactly the
 * documented shape, and re-checking 1000 rows against the zod schema cost more than the query. The
 * schema still documents the reply.
 */
const plainJson = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };

export interface CatalogRouteDeps {
  catalog: CatalogService;
  guard: Guard;
}

/** Brand owner calls of spec 01 §7 (brander, product/*, brandRights, cardTypes), mounted under /api/card-brander. */
export function catalogBranderRoutes({ catalog, guard }: CatalogRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    await acceptMultipart(app, IMAGE_LIMIT + 64 * 1024);
    const pre = guard(supplier);
    app.get(
      "/brander",
      {
        schema: {
          ...docs,
          summary: "The brand owner and its brands",
          response: { 200: envelope(branderReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await catalog.brander(actorOf(req))),
    );
    app.post(
      "/brander/update",
      {
        schema: {
          ...docs,
          summary: "Create a brand, or update one (with id)",
          body: brandReq,
          response: { 200: envelope(brand) },
        },
        preHandler: pre,
      },
      async (req) => ok(await catalog.saveBrand(actorOf(req), req.body)),
    );
    app.get(
      "/brandRights",
      {
        schema: {
          ...docs,
          summary: "The brands goods may be filed under",
          response: { 200: envelope(z.array(brand)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await catalog.brands(actorOf(req))),
    );
    app.get(
      "/cardTypes",
      {
        schema: {
          ...docs,
          summary: "Business, equity and invoice types",
          response: { 200: envelope(cardTypesReply) },
        },
        preHandler: pre,
      },
      () => Promise.resolve(ok(catalog.cardTypes())),
    );
    app.get(
      "/product/search",
      {
        schema: {
          ...docs,
          summary: "Search the supplier's goods",
          querystring: productSearchQuery,
          response: { 200: envelope(pageOf(goods)) },
        },
        ...plainJson,
        preHandler: pre,
      },
      async (req) => ok(await catalog.searchProducts(actorOf(req), req.query)),
    );
    app.get(
      "/product/export",
      {
        schema: {
          ...docs,
          summary: "The supplier's goods matching the filters, as xlsx",
          querystring: productSearchQuery,
        },
        preHandler: pre,
      },
      async (req, reply) => {
        const actor = actorOf(req);
        const lang = req.lang;
        async function* pages() {
          // Page through the matches so an export never holds more than one page.
          for (let page = 1; ; page++) {
            const p = await catalog.searchProducts(actor, { ...req.query, page, pageSize: 1000 });
            if (p.list.length === 0) return;
            yield p.list;
            if (page * 1000 >= p.total) return;
          }
        }
        return sendXlsx(reply, "goods", goodsExportColumns(lang), pages());
      },
    );
    app.post(
      "/product/add",
      {
        schema: { ...docs, summary: "Add a goods", body: goodsReq, response: { 200: envelope(goods) } },
        preHandler: pre,
      },
      async (req) => ok(await catalog.addProduct(actorOf(req), req.body)),
    );
    app.post(
      "/product/update",
      {
        schema: { ...docs, summary: "Update a goods", body: goodsUpdateReq, response: { 200: envelope(goods) } },
        preHandler: pre,
      },
      async (req) => ok(await catalog.updateProduct(actorOf(req), req.body)),
    );
    app.post(
      "/product/images",
      {
        schema: {
          ...docs,
          summary: "Upload a goods or brand image (multipart field file); returns its key and thumbnail",
          response: { 200: envelope(imageReply) },
        },
        preHandler: pre,
      },
      async (req) => {
        const file = (await readMultipart(req)).files.find((f) => f.field === "file");
        if (!file || file.data.length === 0 || file.data.length > IMAGE_LIMIT) {
          throw invalid("catalog.imageInvalid", "file");
        }
        return ok(await catalog.uploadImage(actorOf(req), file.data));
      },
    );
    app.put(
      "/product/:id/state",
      {
        schema: {
          ...docs,
          summary: "Make a goods available, disabled or void",
          params: idParam,
          body: goodsStateReq,
          response: { 200: envelope(goods) },
        },
        preHandler: pre,
      },
      async (req) => ok(await catalog.setState(actorOf(req), req.params.id, req.body.state)),
    );
    app.get(
      "/product/:id",
      {
        schema: { ...docs, summary: "One goods", params: idParam, response: { 200: envelope(goods) } },
        preHandler: pre,
      },
      async (req) => ok(await catalog.product(actorOf(req), req.params.id)),
    );
    app.delete(
      "/product/:id",
      {
        schema: {
          ...docs,
          summary: "Delete (void) a goods; refused while codes are in stock",
          params: idParam,
          response: { 200: nothing },
        },
        preHandler: pre,
      },
      async (req) => {
        await catalog.deleteProduct(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    // Images are public by unguessable key: <img> tags cannot send the token header.
    app.get(
      "/images/:merchant/:file",
      {
        schema: {
          hide: true,
          params: z.object({ merchant: z.string().regex(/^\d{1,18}$/), file: z.string().max(80) }),
        },
      },
      async (req, reply) => {
        const opened = await catalog.openImage(req.params.merchant, req.params.file);
        if (!opened) return reply.status(404).send({ code: 1004, data: null, msg: "not found" });
        return serveUserFile(
          reply,
          { contentType: opened.contentType, size: opened.size, cacheControl: "public, max-age=31536000, immutable" },
          opened.stream,
        );
      },
    );
  };
}

/** Servicer calls, mounted under /api/card-servicer: the supplied goods of a served merchant. */
export function catalogServicerRoutes({ catalog, guard }: CatalogRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    app.get(
      "/insupply/merchandises",
      {
        schema: {
          ...docs,
          summary: "Supplied goods of a merchant this provider serves",
          querystring: servedGoodsQuery,
          response: { 200: envelope(pageOf(goods)) },
        },
        ...plainJson,
        preHandler: guard(provider),
      },
      async (req) => ok(await catalog.servedProducts(actorOf(req), req.query)),
    );
  };
}

/** Card user calls: goods selection (merchandises) and in-supply merchandise, mounted under /api/card-user. */
export function catalogUserRoutes({ catalog, guard }: CatalogRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const buyer = guard(purchaser);
    const seller = guard(supplier);
    app.get(
      "/merchandises",
      {
        schema: {
          ...docs,
          summary: "Goods on sale by type, with filters and sorting",
          querystring: merchandiseQuery,
          response: { 200: envelope(pageOf(merchandise)) },
        },
        ...plainJson,
        preHandler: buyer,
      },
      async (req) => ok(await catalog.merchandises(actorOf(req), req.query)),
    );
    app.get(
      "/merchandises/filters",
      {
        schema: {
          ...docs,
          summary: "Brands and face values on sale, for the filters",
          querystring: z.object({ type: z.enum(SELECTION_TYPES).default("direct") }),
          response: { 200: envelope(merchandiseFilters) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await catalog.merchandiseFilters(actorOf(req), req.query.type)),
    );
    app.get(
      "/merchandises/:id",
      {
        schema: {
          ...docs,
          summary: "One goods on sale",
          params: idParam,
          response: { 200: envelope(merchandise) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await catalog.merchandise(actorOf(req), req.params.id)),
    );
    app.get(
      "/insupply/merchandises",
      {
        schema: {
          ...docs,
          summary: "The supplier's goods in supply",
          querystring: productSearchQuery,
          response: { 200: envelope(pageOf(goods)) },
        },
        ...plainJson,
        preHandler: seller,
      },
      async (req) => ok(await catalog.searchProducts(actorOf(req), req.query)),
    );
    app.get(
      "/insupply/merchandise/:id",
      {
        schema: { ...docs, summary: "One goods in supply", params: idParam, response: { 200: envelope(goods) } },
        preHandler: seller,
      },
      async (req) => ok(await catalog.product(actorOf(req), req.params.id)),
    );
    app.put(
      "/insupply/merchandise/:id",
      {
        schema: {
          ...docs,
          summary: "Change supply terms or state",
          params: idParam,
          body: insupplyUpdateReq,
          response: { 200: envelope(goods) },
        },
        preHandler: seller,
      },
      async (req) => ok(await catalog.updateInsupply(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/insupply/merchandise/:id",
      {
        schema: {
          ...docs,
          summary: "Stop supplying (void) a goods",
          params: idParam,
          response: { 200: nothing },
        },
        preHandler: seller,
      },
      async (req) => {
        await catalog.deleteProduct(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.post(
      "/insupply/merchandise/child",
      {
        schema: {
          ...docs,
          summary: "Add a child item to a combo goods",
          body: childReq,
          response: { 200: envelope(costReply) },
        },
        preHandler: seller,
      },
      async (req) => ok(await catalog.addChild(actorOf(req), req.body)),
    );
    app.get(
      "/insupply/cost/:id",
      {
        schema: {
          ...docs,
          summary: "Unit cost of a goods in supply",
          params: idParam,
          response: { 200: envelope(costReply) },
        },
        preHandler: seller,
      },
      async (req) => ok(await catalog.cost(actorOf(req), req.params.id)),
    );
  };
}
