import {
  envelope,
  invoice,
  invoiceableReply,
  invoicePage,
  invoiceQuery,
  invoiceRatesReply,
  invoiceRefuseReq,
  invoiceReq,
  invoiceReverseReq,
  invoiceSettings,
  invoiceSettingsReq,
  invoiceTitle,
  invoiceTitleReq,
  invoiceTitlesReply,
  opsInvoiceQuery,
} from "@tessera/contracts";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { actorOf, type Guard } from "../../platform/auth/guard";
import { ok } from "../../platform/http/envelope";
import { idParam, routeDocs } from "../../platform/http/route";
import { serveUserFile } from "../../platform/storage/serve";
import type { InvoicesService } from "./service";

const docs = routeDocs("invoices");
const pdfQuery = z.object({ red: z.enum(["0", "1"]).optional() });
const PAGES = ["sale/Invoice", "sale/InvoiceRecord", "sale/TicketSignature"];

function sendPdf(reply: FastifyReply, f: { fileName: string; data: Buffer }) {
  // A stored file: the same headers as every user file (a PDF is always a download).
  return serveUserFile(
    reply,
    { contentType: "application/pdf", filename: f.fileName, cacheControl: "private, no-store" },
    f.data,
  );
}

/** The merchant's invoice calls (`/api/card-user`): invoiceable amounts, requests, records, titles, settings. */
export function invoiceUserRoutes({
  invoices,
  guard,
}: {
  invoices: InvoicesService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ roles: ["sale"], menu: PAGES });
    app.get(
      "/invoice/rates",
      {
        schema: {
          ...docs,
          summary: "Invoice types and their tax rates, with the days they apply",
          response: { 200: envelope(invoiceRatesReply) },
        },
        preHandler: pre,
      },
      async () => ok(await invoices.rates()),
    );
    app.get(
      "/invoice/invoiceable",
      {
        schema: {
          ...docs,
          summary: "Spent, requested, issued and invoiceable amounts per invoice type",
          response: { 200: envelope(invoiceableReply) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.invoiceable(actorOf(req))),
    );
    app.get(
      "/invoices",
      {
        schema: {
          ...docs,
          summary: "The merchant's invoices",
          querystring: invoiceQuery,
          response: { 200: envelope(invoicePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.list(actorOf(req), req.query)),
    );
    app.post(
      "/invoices",
      {
        schema: {
          ...docs,
          summary: "Request an invoice against the invoiceable amount",
          body: invoiceReq,
          response: { 200: envelope(invoice) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.request(actorOf(req), req.body)),
    );
    app.get(
      "/invoices/:id/pdf",
      {
        schema: {
          ...docs,
          summary: "The invoice PDF (red=1: the red-letter one)",
          params: idParam,
          querystring: pdfQuery,
        },
        preHandler: pre,
      },
      async (req, reply) => sendPdf(reply, await invoices.pdfFor(actorOf(req), req.params.id, req.query.red === "1")),
    );
    app.get(
      "/invoice/titles",
      {
        schema: { ...docs, summary: "Saved invoice titles", response: { 200: envelope(invoiceTitlesReply) } },
        preHandler: pre,
      },
      async (req) => ok(await invoices.titles(actorOf(req))),
    );
    app.post(
      "/invoice/titles",
      {
        schema: {
          ...docs,
          summary: "Save an invoice title",
          body: invoiceTitleReq,
          response: { 200: envelope(invoiceTitle) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.saveTitle(actorOf(req), null, req.body)),
    );
    app.put(
      "/invoice/titles/:id",
      {
        schema: {
          ...docs,
          summary: "Change an invoice title",
          params: idParam,
          body: invoiceTitleReq,
          response: { 200: envelope(invoiceTitle) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.saveTitle(actorOf(req), req.params.id, req.body)),
    );
    app.delete(
      "/invoice/titles/:id",
      {
        schema: {
          ...docs,
          summary: "Delete an invoice title",
          params: idParam,
          response: { 200: envelope(z.null()) },
        },
        preHandler: pre,
      },
      async (req) => {
        await invoices.deleteTitle(actorOf(req), req.params.id);
        return ok(null);
      },
    );
    app.get(
      "/invoice/settings",
      {
        schema: {
          ...docs,
          summary: "E-signature and delivery settings",
          response: { 200: envelope(invoiceSettings) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.settings(actorOf(req))),
    );
    app.put(
      "/invoice/settings",
      {
        schema: {
          ...docs,
          summary: "Save the e-signature and delivery settings",
          body: invoiceSettingsReq,
          response: { 200: envelope(invoiceSettings) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.saveSettings(actorOf(req), req.body)),
    );
  };
}

/** The operator's invoice console (`/api/ops`): every request, issue, refuse, red-letter reversal. */
export function invoiceOpsRoutes({
  invoices,
  guard,
}: {
  invoices: InvoicesService;
  guard: Guard;
}): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const pre = guard({ kinds: ["operator"] });
    app.get(
      "/invoices",
      {
        schema: {
          ...docs,
          summary: "Invoice requests and invoices of every merchant",
          querystring: opsInvoiceQuery,
          response: { 200: envelope(invoicePage) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.opsList(req.query)),
    );
    app.put(
      "/invoices/:id/issue",
      {
        schema: {
          ...docs,
          summary: "Issue a requested invoice through the e-invoice adapter and mail it",
          params: idParam,
          response: { 200: envelope(invoice) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.issue(actorOf(req), req.params.id)),
    );
    app.put(
      "/invoices/:id/refuse",
      {
        schema: {
          ...docs,
          summary: "Refuse an invoice request",
          params: idParam,
          body: invoiceRefuseReq,
          response: { 200: envelope(invoice) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.refuse(actorOf(req), req.params.id, req.body.reason)),
    );
    app.put(
      "/invoices/:id/reverse",
      {
        schema: {
          ...docs,
          summary: "Reverse an issued invoice with a red-letter invoice",
          params: idParam,
          body: invoiceReverseReq,
          response: { 200: envelope(invoice) },
        },
        preHandler: pre,
      },
      async (req) => ok(await invoices.reverse(actorOf(req), req.params.id, req.body.reason)),
    );
    app.get(
      "/invoices/:id/pdf",
      {
        schema: {
          ...docs,
          summary: "An invoice's PDF (red=1: the red-letter one)",
          params: idParam,
          querystring: pdfQuery,
        },
        preHandler: pre,
      },
      async (req, reply) => sendPdf(reply, await invoices.pdfFor(null, req.params.id, req.query.red === "1")),
    );
  };
}
