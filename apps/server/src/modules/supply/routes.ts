import { Transform, type Readable } from "node:stream";
import {
  batchQuery,
  card,
  cardBatch,
  cardQuery,
  envelope,
  idParam,
  importQuery,
  importReportRow,
  midParam,
  pageOf,
  pageQuery,
  reportQuery,
  resaleMerchandise,
  resaleQuery,
  revealedCard,
  voidCardsReq,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { invalid } from "../../platform/http/errors";
import { routeDocs } from "../../platform/http/route";
import type { CatalogService } from "../catalog";
import { purchaser, reseller, supplier } from "./policy";
import type { SupplyService } from "./service";
import { rejectReport, templateWorkbook, XLSX_MIME } from "./sheets";

const docs = routeDocs("supply");
/** An import file may be large (a million codes is ~40 MB as CSV); it is streamed, never buffered whole. */
export const IMPORT_LIMIT_BYTES = 256 * 1024 * 1024;

export interface SupplyRouteDeps {
  supply: SupplyService;
  guard: Guard;
}
export interface SupplyUserRouteDeps extends SupplyRouteDeps {
  catalog: CatalogService;
}

function download(fileName: string) {
  return `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** Counts bytes as they pass and fails the stream past the limit. */
function limited(input: Readable, limit: number): Readable {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen > limit) done(new Error("import file too large"));
      else done(null, chunk);
    },
  });
  input.on("error", (err) => t.destroy(err));
  return input.pipe(t);
}

/** Card-secret calls of the brand owner (sup/merchandises/{mid}/cards, sup/purchaseCardRecords, reports). */
export function supplyBranderRoutes({ supply, guard }: SupplyRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    // Import bodies reach the handler as the raw request stream.
    app.addContentTypeParser(["text/csv", XLSX_MIME, "application/octet-stream"], (_req, payload, done) =>
      done(null, payload),
    );
    const pre = guard(supplier);

    app.get(
      "/sup/cards/template",
      { schema: { ...docs, summary: "The card import template (xlsx)" }, preHandler: pre },
      async (req, reply) => {
        const file = await templateWorkbook(req.lang, new Date());
        return reply
          .header("content-type", XLSX_MIME)
          .header("content-disposition", download("card-template.xlsx"))
          .send(file);
      },
    );
    app.post(
      "/sup/merchandises/:mid/cards",
      {
        schema: {
          ...docs,
          summary: "Import card secrets: the body is the xlsx or csv file itself, its name in ?fileName=",
          params: midParam,
          querystring: importQuery,
          response: { 200: envelope(cardBatch) },
        },
        preHandler: pre,
      },
      async (req) => {
        const body: unknown = req.body;
        if (!body || typeof (body as Readable).pipe !== "function") throw invalid("supply.fileType", "file");
        return ok(
          await supply.importCards(
            actorOf(req),
            req.params.mid,
            limited(body as Readable, IMPORT_LIMIT_BYTES),
            req.query.fileName,
          ),
        );
      },
    );
    app.get(
      "/sup/merchandises/:mid/cards",
      {
        schema: {
          ...docs,
          summary: "The goods' codes, masked",
          params: midParam,
          querystring: cardQuery,
          response: { 200: envelope(pageOf(card)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.cards(actorOf(req), req.params.mid, req.query)),
    );
    app.post(
      "/sup/merchandises/:mid/cards/void",
      {
        schema: {
          ...docs,
          summary: "Void unsold codes",
          params: midParam,
          body: voidCardsReq,
          response: { 200: envelope(z.object({ voided: z.number().int() })) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.voidCards(actorOf(req), req.params.mid, req.body.ids)),
    );
    app.get(
      "/sup/purchaseCardRecords",
      {
        schema: {
          ...docs,
          summary: "Card import records",
          querystring: batchQuery,
          response: { 200: envelope(pageOf(cardBatch)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.batches(actorOf(req), req.query, req.lang)),
    );
    app.get(
      "/sup/purchaseCardRecords/:id",
      {
        schema: {
          ...docs,
          summary: "One import record",
          params: idParam,
          response: { 200: envelope(cardBatch) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.batch(actorOf(req), req.params.id, req.lang)),
    );
    app.get(
      "/sup/purchaseCardRecords/:id/rejects",
      {
        schema: {
          ...docs,
          summary: "The reject report of an import (xlsx: row numbers and reasons)",
          params: idParam,
        },
        preHandler: pre,
      },
      async (req, reply) => {
        const actor = actorOf(req);
        const batch = await supply.batch(actor, req.params.id);
        const stream = rejectReport(req.lang, supply.rejects(actor, batch.id));
        return reply
          .header("content-type", XLSX_MIME)
          .header("content-disposition", download(`rejects-${batch.id}.xlsx`))
          .send(stream);
      },
    );
    app.get(
      "/sup/purchaseCard/reports",
      {
        schema: {
          ...docs,
          summary: "Imports per day and goods",
          querystring: reportQuery,
          response: { 200: envelope(pageOf(importReportRow)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.report(actorOf(req), req.query)),
    );
  };
}

const boughtQuery = pageQuery.extend({
  orderId: z.string().trim().max(64).optional(),
  goodsId: z.coerce.number().int().positive().optional(),
});

/** The purchaser's codes: masked lists and the audited reveal, under /api/card-user. */
export function supplyUserRoutes({ supply, catalog, guard }: SupplyUserRouteDeps): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard(purchaser);
    app.get(
      "/purchasedCards",
      {
        schema: {
          ...docs,
          summary: "Codes this purchaser bought, masked",
          querystring: boughtQuery,
          response: { 200: envelope(pageOf(card)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.boughtCards(actorOf(req), req.query)),
    );
    app.get(
      "/resale/merchandises",
      {
        schema: {
          ...docs,
          summary: "Goods this merchant bought codes of, to resell (filters: goods keyword, purchase days)",
          querystring: resaleQuery,
          response: { 200: envelope(pageOf(resaleMerchandise)) },
        },
        preHandler: guard(reseller),
      },
      async (req) => {
        const { rows, total } = await supply.boughtGoods(actorOf(req), req.query);
        const goods = await catalog.merchandisesByIds(rows.map((r) => r.goodsId));
        const list = rows.flatMap((r) => {
          const g = goods.get(r.goodsId);
          return g ? [{ goods: g, bought: r.bought, lastBoughtAt: r.lastBoughtAt }] : [];
        });
        return ok({ list, total, page: req.query.page, pageSize: req.query.pageSize });
      },
    );
    app.post(
      "/purchasedCards/reveal",
      {
        schema: {
          ...docs,
          summary: "Reveal bought codes in full (audited)",
          body: voidCardsReq,
          response: { 200: envelope(z.array(revealedCard)) },
        },
        preHandler: pre,
      },
      async (req) => ok(await supply.reveal(actorOf(req), req.body.ids)),
    );
  };
}
