import {
  CODE,
  INVOICE_TYPES,
  invoiceCategoryOf,
  titleProblems,
  type Invoice,
  type InvoiceableRow,
  type InvoiceQuery,
  type InvoiceReq,
  type InvoiceSettings,
  type InvoiceSettingsReq,
  type InvoiceTitle,
  type InvoiceTitleReq,
  type InvoiceType,
  type OpsInvoiceQuery,
  type Page,
} from "@tessera/contracts";
import { withTx, type Db, type Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { audit } from "../../platform/audit";
import { platformDay, startOfPlatformDay, type Clock } from "../../platform/clock";
import { AppError, conflict, invalid } from "../../platform/http/errors";
import type { Mailer } from "../../platform/messaging/adapters";
import type { FileStorage } from "../../platform/storage";
import { getMerchant, merchantOfActor } from "../merchants";
import { yuan, type EInvoiceAdapter } from "../../platform/adapters/einvoice";
import { recordOperatorAction } from "../ops";
import * as repo from "./repo";

/** The platform as the seller on its invoices. */
export interface InvoiceSeller {
  name: string;
  taxId: string;
  address: string;
  bank: string;
  bankAccount: string;
}

export interface InvoicesDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
  mailer: Mailer;
  adapter: EInvoiceAdapter;
  seller: InvoiceSeller;
  /** What a purchaser spent per invoice type (the purchasing module's read). */
  spendByInvoiceType(db: Executor, merchantId: number, currency: string): Promise<Map<InvoiceType, number>>;
  log(line: string): void;
}

export const MAX_TITLES = 20;
const notFound = () => new AppError(CODE.NOT_FOUND, "invoice.notFound");

/** Tax of a tax-inclusive amount at a rate in basis points, rounded half up to the minor unit. */
export function taxOf(amount: number, rateBp: number): number {
  return Math.floor((amount * rateBp * 2 + (10_000 + rateBp)) / (2 * (10_000 + rateBp)));
}

/**
 * Invoices against spend. A merchant's invoiceable amount per type is what it spent, read from the ledger
 * entries its fund sheet lists (digital goods by the goods' invoice type, cards and physical goods by their
 * category's, each less refunds, and the platform fees it paid less fees given back, as VAT 6% services: see
 * index.ts) less its requested and issued invoices; a request
 * takes from it under a lock on the merchant's account of that type, so parallel requests never take
 * more than there is. An operator issues a request (the e-invoice adapter numbers it and renders the
 * PDF, the mail adapter delivers it) or refuses it; a red-letter reversal of an issued invoice gives
 * its amount back. No money moves: an invoice is a document about money that already moved.
 */
export class InvoicesService {
  constructor(private readonly deps: InvoicesDeps) {}

  private today(): string {
    return platformDay(this.deps.clock.now());
  }

  async rates() {
    return (await repo.rates(this.deps.db)).map((r) => ({
      invoiceType: r.invoice_type,
      category: invoiceCategoryOf(r.invoice_type),
      rateBp: r.rate_bp,
      validFrom: r.valid_from,
      validTo: r.valid_to,
    }));
  }

  /** `GET invoice/invoiceable`: per type, spent, pending, invoiced and what is left. */
  async invoiceable(actor: Actor): Promise<InvoiceableRow[]> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    const [spend, out, rates] = await Promise.all([
      this.deps.spendByInvoiceType(this.deps.db, merchant.id, merchant.currency),
      repo.outstanding(this.deps.db, merchant.id),
      Promise.all(INVOICE_TYPES.map((t) => repo.rateOn(this.deps.db, t, this.today()))),
    ]);
    const m = (amount: number) => ({ amount, currency: merchant.currency });
    return INVOICE_TYPES.map((t, i) => {
      const spent = spend.get(t) ?? 0;
      const { pending, invoiced } = out.get(t) ?? { pending: 0, invoiced: 0 };
      const rateBp = rates[i] ?? null;
      return {
        invoiceType: t,
        category: invoiceCategoryOf(t),
        rateBp,
        available: rateBp !== null && merchant.currency === "CNY",
        spent: m(spent),
        pending: m(pending),
        invoiced: m(invoiced),
        invoiceable: m(spent - pending - invoiced),
      };
    });
  }

  /** `POST invoices`: a request against the invoiceable amount of its type. */
  async request(actor: Actor, req: InvoiceReq): Promise<Invoice> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    const replay = await repo.findByRequestKey(this.deps.db, merchant.id, req.requestKey);
    if (replay) return this.presentOne(replay);
    if (merchant.currency !== "CNY") throw invalid("invoice.currencyUnsupported");
    const rateBp = await repo.rateOn(this.deps.db, req.invoiceType, this.today());
    if (rateBp === undefined) throw invalid("invoice.typeUnavailable", "invoiceType");
    // A request without an email goes to the delivery email of the e-signature settings (TicketSignature).
    const email = req.email || (await repo.settings(this.deps.db, merchant.id))?.delivery_email || "";
    if (!email) throw invalid("invoice.emailRequired", "email");
    const now = this.deps.clock.now();
    const row = await withTx(this.deps.db, async (tx) => {
      await repo.lockAccount(tx, merchant.id, req.invoiceType);
      const spent = (await this.deps.spendByInvoiceType(tx, merchant.id, merchant.currency)).get(req.invoiceType) ?? 0;
      const used = (await repo.outstanding(tx, merchant.id)).get(req.invoiceType) ?? { pending: 0, invoiced: 0 };
      const available = spent - used.pending - used.invoiced;
      if (req.amount > available) {
        throw invalid("invoice.overInvoiceable", "amount", { available: yuan(Math.max(0, available)) });
      }
      const id = await repo.insertInvoice(tx, {
        merchant_id: merchant.id,
        invoice_type: req.invoiceType,
        rate_bp: rateBp,
        amount: req.amount,
        tax_amount: taxOf(req.amount, rateBp),
        currency: merchant.currency,
        title_name: req.title.name,
        tax_id: req.title.taxId,
        address: req.title.address,
        phone: req.title.phone,
        bank: req.title.bank,
        bank_account: req.title.bankAccount,
        email,
        remark: req.remark,
        request_key: req.requestKey,
        created_by: actor.userId,
        created_at: now,
        updated_at: now,
      });
      if (id === null) return repo.findByRequestKey(tx, merchant.id, req.requestKey);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "invoices.request",
        subjectType: "invoice",
        subjectId: id,
        detail: { type: req.invoiceType, amount: req.amount },
      });
      return repo.findInvoice(tx, id);
    });
    if (!row) throw notFound();
    return this.presentOne(row);
  }

  async list(actor: Actor, q: InvoiceQuery): Promise<Page<Invoice>> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    return this.page({ ...q, merchantId: merchant.id });
  }

  async opsList(q: OpsInvoiceQuery): Promise<Page<Invoice>> {
    return this.page({ ...q, merchantId: q.merchantId === undefined ? undefined : Number(q.merchantId) });
  }

  private async page(q: InvoiceQuery & { merchantId: number | undefined }): Promise<Page<Invoice>> {
    const { rows, total } = await repo.invoicePage(this.deps.db, {
      merchantId: q.merchantId,
      state: q.state,
      invoiceType: q.invoiceType,
      from: q.from ? startOfPlatformDay(q.from) : undefined,
      to: q.to ? new Date(startOfPlatformDay(q.to).getTime() + 86_400_000) : undefined,
      offset: (q.page - 1) * q.pageSize,
      limit: q.pageSize,
    });
    return { list: await this.present(rows), total, page: q.page, pageSize: q.pageSize };
  }

  /** The PDF of a merchant's own invoice (blue, or the red-letter one). */
  async pdfFor(actor: Actor | null, id: number, red: boolean): Promise<{ fileName: string; data: Buffer }> {
    const row = await repo.findInvoice(this.deps.db, id);
    if (!row) throw notFound();
    if (actor !== null) {
      const merchant = await merchantOfActor(this.deps.db, actor);
      if (row.merchant_id !== merchant.id) throw notFound();
    }
    const key = red ? row.red_pdf_key : row.pdf_key;
    const number = red ? row.red_invoice_no : row.invoice_no;
    const data = key ? await this.deps.storage.get(key) : null;
    if (!data || !number) throw conflict("invoice.noPdf");
    return { fileName: `${red ? "red-" : ""}invoice-${number}.pdf`, data };
  }

  /** The merchant's e-signature signer, when its settings turn e-signing on and name one. */
  private async signerOf(db: Executor, merchantId: number): Promise<{ name: string; phone: string } | undefined> {
    const s = await repo.settings(db, merchantId);
    return s?.e_sign && s.signer_name ? { name: s.signer_name, phone: s.signer_phone } : undefined;
  }

  private documentOf(
    row: repo.InvoiceRow,
    issuedOn: string,
    sign: 1 | -1,
    issuer: string,
    signer?: { name: string; phone: string },
  ) {
    return {
      issuedOn,
      category: invoiceCategoryOf(row.invoice_type),
      rateBp: row.rate_bp,
      amount: sign * row.amount,
      taxAmount: sign * row.tax_amount,
      itemName: "数字权益商品",
      buyer: {
        name: row.title_name,
        taxId: row.tax_id,
        address: row.address,
        phone: row.phone,
        bank: row.bank,
        bankAccount: row.bank_account,
      },
      seller: this.deps.seller,
      remark: row.remark,
      issuer,
      ...(signer && { signer }),
    };
  }

  /**
   * `PUT ops/invoices/:id/issue`: under the invoice's row lock the adapter numbers and renders it (the
   * same id always gives the same number, so a retry overwrites the same file) and the row turns issued
   * (of two racing operators one issues, the other is told it was handled); then the mail goes out and
   * the invoice is delivered. An invoice whose
   * mail failed stays issued (the merchant downloads it from its record).
   */
  async issue(operator: Actor, id: number): Promise<Invoice> {
    const now = this.deps.clock.now();
    const issuedOn = platformDay(now);
    const row = await withTx(this.deps.db, async (tx) => {
      // The row lock is held while the adapter renders and the file is stored: a second operator
      // waits here and then finds the invoice issued.
      const locked = await repo.lockInvoice(tx, id);
      if (!locked) throw notFound();
      if (locked.state !== "requested") throw conflict("invoice.notRequested");
      const signer = await this.signerOf(tx, locked.merchant_id);
      const { invoiceNo, pdf } = await this.deps.adapter.issue(
        id,
        this.documentOf(locked, issuedOn, 1, operator.email, signer),
      );
      const key = `invoices/${locked.merchant_id}/${id}.pdf`;
      await this.deps.storage.put(key, pdf);
      await repo.updateInvoice(tx, id, {
        state: "issued",
        invoice_no: invoiceNo,
        pdf_key: key,
        issued_at: now,
        decided_by: operator.userId,
        updated_at: now,
      });
      // The operator console's audit log lists what operators did (issue 40, item 16).
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "invoices.issue",
        subjectType: "invoice",
        subjectId: String(id),
        before: { state: locked.state },
        after: { state: "issued", invoiceNo, amount: locked.amount, currency: locked.currency },
        reason: null,
        ip: null,
        now,
      });
      return repo.findInvoice(tx, id);
    });
    if (!row) throw notFound();
    return this.deliver(row);
  }

  /** The stored PDF of an invoice (blue or red) as a mail attachment. */
  private async attachment(key: string | null, fileName: string) {
    const content = key ? await this.deps.storage.get(key) : null;
    if (!content) throw new Error(`invoice PDF ${key ?? "(none)"} not stored`);
    return { filename: fileName, contentType: "application/pdf", content };
  }

  private async deliver(row: repo.InvoiceRow): Promise<Invoice> {
    try {
      await this.deps.mailer.send({
        attachments: [await this.attachment(row.pdf_key, `invoice-${row.invoice_no ?? row.id}.pdf`)],
        to: row.email,
        subject: `电子发票 Electronic invoice ${row.invoice_no ?? ""}`,
        text: [
          `${row.title_name}：`,
          `您申请的发票已开具。发票号码 ${row.invoice_no ?? ""}，价税合计 ¥${yuan(row.amount)}（税额 ¥${yuan(row.tax_amount)}）。`,
          `发票 PDF 见附件，也可登录后台 /sale/InvoiceRecord 下载。`,
          `Your invoice ${row.invoice_no ?? ""} for ¥${yuan(row.amount)} has been issued: the PDF is attached, and at /sale/InvoiceRecord.`,
        ].join("\n"),
      });
    } catch (err) {
      this.deps.log(`invoice ${row.id} issued but not mailed: ${String(err)}`);
      return this.presentOne(row);
    }
    await repo.markDelivered(this.deps.db, row.id, this.deps.clock.now());
    const after = await repo.findInvoice(this.deps.db, row.id);
    return this.presentOne(after ?? row);
  }

  /** `PUT ops/invoices/:id/refuse`: a request not issued; its amount is invoiceable again. */
  async refuse(operator: Actor, id: number, reason: string): Promise<Invoice> {
    const now = this.deps.clock.now();
    const row = await withTx(this.deps.db, async (tx) => {
      const locked = await repo.lockInvoice(tx, id);
      if (!locked) throw notFound();
      if (locked.state !== "requested") throw conflict("invoice.notRequested");
      await repo.updateInvoice(tx, id, {
        state: "refused",
        refuse_reason: reason,
        decided_by: operator.userId,
        updated_at: now,
      });
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "invoices.refuse",
        subjectType: "invoice",
        subjectId: String(id),
        before: { state: locked.state },
        after: { state: "refused" },
        reason,
        ip: null,
        now,
      });
      return repo.findInvoice(tx, id);
    });
    if (!row) throw notFound();
    return this.presentOne(row);
  }

  /** `PUT ops/invoices/:id/reverse`: a red-letter invoice cancels an issued one; its amount is invoiceable again. */
  async reverse(operator: Actor, id: number, reason: string): Promise<Invoice> {
    const now = this.deps.clock.now();
    const issuedOn = platformDay(now);
    const { row, invoiceNo } = await withTx(this.deps.db, async (tx) => {
      const locked = await repo.lockInvoice(tx, id);
      if (!locked) throw notFound();
      if ((locked.state !== "issued" && locked.state !== "delivered") || !locked.invoice_no) {
        throw conflict("invoice.notIssued");
      }
      const signer = await this.signerOf(tx, locked.merchant_id);
      const red = await this.deps.adapter.reverse(
        id,
        locked.invoice_no,
        this.documentOf({ ...locked, remark: reason }, issuedOn, -1, operator.email, signer),
      );
      const key = `invoices/${locked.merchant_id}/${id}-red.pdf`;
      await this.deps.storage.put(key, red.pdf);
      await repo.updateInvoice(tx, id, {
        state: "reversed",
        red_invoice_no: red.invoiceNo,
        red_pdf_key: key,
        reverse_reason: reason,
        reversed_at: now,
        updated_at: now,
      });
      await recordOperatorAction(tx, {
        operatorUserId: operator.userId,
        action: "invoices.reverse",
        subjectType: "invoice",
        subjectId: String(id),
        before: { state: locked.state, invoiceNo: locked.invoice_no },
        after: { state: "reversed", invoiceNo: red.invoiceNo },
        reason,
        ip: null,
        now,
      });
      return { row: await repo.findInvoice(tx, id), invoiceNo: red.invoiceNo };
    });
    if (!row) throw notFound();
    await this.attachment(row.red_pdf_key, `red-invoice-${invoiceNo}.pdf`)
      .then((pdf) =>
        this.deps.mailer.send({
          to: row.email,
          subject: `红字发票 Red-letter invoice ${invoiceNo}`,
          text:
            `发票 ${row.invoice_no ?? ""} 已红冲（红字发票 ${invoiceNo}，见附件），原因：${reason}。金额 ¥${yuan(row.amount)} 可重新申请开票。\nInvoice ${row.invoice_no ?? ""} ` +
            `was reversed by red-letter invoice ${invoiceNo} (attached); ¥${yuan(row.amount)} is invoiceable again.`,
          attachments: [pdf],
        }),
      )
      .catch((err: unknown) => this.deps.log(`red-letter notice for invoice ${id} not mailed: ${String(err)}`));
    return this.presentOne(row);
  }

  // Titles and e-signature settings (TicketSignature).

  async titles(actor: Actor): Promise<InvoiceTitle[]> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    return (await repo.titles(this.deps.db, merchant.id)).map(presentTitle);
  }

  async saveTitle(actor: Actor, id: number | null, req: InvoiceTitleReq): Promise<InvoiceTitle> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    const values = {
      name: req.name,
      tax_id: req.taxId,
      address: req.address,
      phone: req.phone,
      bank: req.bank,
      bank_account: req.bankAccount,
      is_default: req.isDefault,
    };
    const saved = await withTx(this.deps.db, async (tx) => {
      if (id === null && (await repo.countTitles(tx, merchant.id)) >= MAX_TITLES) {
        throw invalid("invoice.titleLimit", undefined, { max: MAX_TITLES });
      }
      if (req.isDefault) await repo.clearDefault(tx, merchant.id);
      if (id === null) {
        return repo.insertTitle(tx, merchant.id, values, this.deps.clock.now());
      }
      if (!(await repo.updateTitle(tx, merchant.id, id, values))) {
        throw new AppError(CODE.NOT_FOUND, "invoice.titleNotFound");
      }
      return id;
    });
    const row = (await repo.titles(this.deps.db, merchant.id)).find((t) => t.id === saved);
    if (!row) throw new AppError(CODE.NOT_FOUND, "invoice.titleNotFound");
    return presentTitle(row);
  }

  async deleteTitle(actor: Actor, id: number): Promise<void> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    if (!(await repo.deleteTitle(this.deps.db, merchant.id, id))) {
      throw new AppError(CODE.NOT_FOUND, "invoice.titleNotFound");
    }
  }

  async settings(actor: Actor): Promise<InvoiceSettings> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    const s = await repo.settings(this.deps.db, merchant.id);
    return s
      ? {
          eSign: s.e_sign,
          signerName: s.signer_name,
          signerPhone: s.signer_phone,
          deliveryEmail: s.delivery_email,
          updatedAt: new Date(s.updated_at).toISOString(),
        }
      : { eSign: false, signerName: "", signerPhone: "", deliveryEmail: "", updatedAt: null };
  }

  async saveSettings(actor: Actor, req: InvoiceSettingsReq): Promise<InvoiceSettings> {
    const merchant = await merchantOfActor(this.deps.db, actor);
    const values = {
      e_sign: req.eSign,
      signer_name: req.signerName,
      signer_phone: req.signerPhone,
      delivery_email: req.deliveryEmail,
      updated_by: actor.userId,
      updated_at: this.deps.clock.now(),
    };
    await repo.saveSettings(this.deps.db, merchant.id, values);
    return this.settings(actor);
  }

  private async presentOne(row: repo.InvoiceRow): Promise<Invoice> {
    const [x] = await this.present([row]);
    if (!x) throw notFound();
    return x;
  }

  private async present(rows: repo.InvoiceRow[]): Promise<Invoice[]> {
    const names = new Map<number, string>();
    for (const id of new Set(rows.map((r) => r.merchant_id))) {
      names.set(id, (await getMerchant(this.deps.db, id))?.name ?? "");
    }
    const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
    return rows.map((r) => ({
      id: String(r.id),
      merchantId: String(r.merchant_id),
      merchantName: names.get(r.merchant_id) ?? "",
      invoiceType: r.invoice_type,
      category: invoiceCategoryOf(r.invoice_type),
      rateBp: r.rate_bp,
      amount: { amount: r.amount, currency: r.currency },
      taxAmount: { amount: r.tax_amount, currency: r.currency },
      title: {
        name: r.title_name,
        taxId: r.tax_id,
        address: r.address,
        phone: r.phone,
        bank: r.bank,
        bankAccount: r.bank_account,
      },
      email: r.email,
      remark: r.remark,
      state: r.state,
      refuseReason: r.refuse_reason,
      invoiceNo: r.invoice_no,
      redInvoiceNo: r.red_invoice_no,
      reverseReason: r.reverse_reason,
      createdAt: new Date(r.created_at).toISOString(),
      issuedAt: iso(r.issued_at),
      deliveredAt: iso(r.delivered_at),
      reversedAt: iso(r.reversed_at),
    }));
  }
}

function presentTitle(t: repo.TitleRow): InvoiceTitle {
  const fields = {
    name: t.name,
    taxId: t.tax_id,
    address: t.address,
    phone: t.phone,
    bank: t.bank,
    bankAccount: t.bank_account,
  };
  return {
    id: String(t.id),
    ...fields,
    isDefault: t.is_default,
    specialReady: titleProblems("special", fields).length === 0,
    createdAt: new Date(t.created_at).toISOString(),
  };
}
