import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { setImmediate } from "node:timers/promises";
import {
  CODE,
  renderMessage,
  type Lang,
  type Card,
  type CardBatch,
  type CardQuery,
  type Page,
  type RejectReason,
  type ResaleQuery,
  type RevealedCard,
} from "@tessera/contracts";
import { sql } from "kysely";
import { platformDay, startOfPlatformDay, type Clock } from "../../platform/clock";
import type { Db, Executor } from "../../db/tx";
import { withTx } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { AppError, conflict, invalid, notFound } from "../../platform/http/errors";
import type { Mailer } from "../../platform/messaging/adapters";
import { adjustStock, goodsMatching, goodsNames, lockGoodsForStock, type LowStock } from "../catalog";
import { maskNumber, MASKED_SECRET, type CardKeys } from "./crypto";
import {
  FileTooLarge,
  isTemplateHeader,
  kindOf,
  readCsvRows,
  readXlsxFileRows,
  toRawRow,
  UnreadableFile,
  type FileRow,
} from "./import/rows";
import { checkRow, isBlankRow, type CheckedRow } from "./import/validate";
import { notifyLowStock } from "./notify";
import * as repo from "./repo";
import { fileDuration } from "../../platform/metrics";

export interface SupplyDeps {
  db: Db;
  keys: CardKeys;
  clock: Clock;
  mailer: Mailer;
  /** The embedded database lands imported codes with COPY (see repo.copyCards). */
  copyImports?: boolean;
  /** Where an xlsx import waits while it is read (DATA_DIR/imports; default the system's temp directory). */
  spoolDir?: string;
}

/** Rows written per transaction: large enough to amortise a round trip, small enough to bound memory. */
const CHUNK = 5000;
/** While an import reads, it says it is alive this often (the sweep closes batches silent for two minutes). */
const HEARTBEAT_MS = 30_000;
/** An importing batch untouched this long has no importer left (on a PostgreSQL server shared by nodes). */
export const IMPORT_STALE_SECONDS = 120;

type Reject = { rowNo: number; reason: RejectReason; numberMask: string };

/**
 * The rows of an import waiting to land together. Each row is sealed, hashed and masked as it is read,
 * so only what lands is kept: the file's own cells are garbage at once instead of living until the
 * chunk's transaction (a million-code import would otherwise carry them into the old heap).
 */
class Chunk {
  rows = 0;
  readonly rejects: Reject[] = [];
  readonly cards: repo.NewCard[] = [];
  /** Numbers (by keyed hash) already in this chunk: a second one is a duplicate within the file. */
  private readonly seen = new Set<string>();

  constructor(private readonly keys: CardKeys) {}

  add(row: CheckedRow): void {
    this.rows += 1;
    if (!row.ok) {
      this.rejects.push({
        rowNo: row.rowNo,
        reason: row.reason,
        numberMask: row.number ? maskNumber(row.number.slice(0, 64)) : "",
      });
      return;
    }
    const numberHash = this.keys.numberHash(row.number);
    if (this.seen.has(numberHash)) {
      this.rejects.push({ rowNo: row.rowNo, reason: "duplicateInFile", numberMask: maskNumber(row.number) });
      return;
    }
    this.seen.add(numberHash);
    this.cards.push({
      rowNo: row.rowNo,
      numberHash,
      numberMask: maskNumber(row.number),
      sealed: this.keys.seal(row.number, row.secret),
      expiresOn: row.expiresOn,
    });
  }
}

/** Supplied goods' card secrets: import, lists (masked), void, reveal to the buyer, import records. */
export class SupplyService {
  constructor(private readonly deps: SupplyDeps) {}

  /** Expiry dates are platform days (UTC+8). */
  private today(): string {
    return platformDay(this.deps.clock.now());
  }

  /** The supplier's own card goods, or 404; a void goods takes no more codes. */
  private async ownCardGoods(db: Executor, merchantId: number, goodsId: number, lock: boolean) {
    const goods = await lockGoodsForStock(db, goodsId, lock);
    if (!goods || goods.merchantId !== merchantId) throw notFound();
    if (!goods.cardStock) throw invalid("supply.notCardGoods", "mid");
    return goods;
  }

  /**
   * Streams an xlsx or csv file of codes into a goods. Each chunk of rows lands in its own transaction
   * together with its stock and batch counters, so stock is exact at every moment, and memory holds one
   * chunk. Duplicates are found by the database (unique keyed hash per goods): a number already stored
   * by this batch is a duplicate within the file, by another batch a duplicate of a stored code.
   */
  async importCards(actor: Actor, goodsId: number, input: Readable, fileName: string): Promise<CardBatch> {
    const stopTimer = fileDuration.startTimer({ kind: "import" });
    try {
      return await this.importCardsTimed(actor, goodsId, input, fileName);
    } finally {
      stopTimer();
    }
  }

  private async importCardsTimed(actor: Actor, goodsId: number, input: Readable, fileName: string): Promise<CardBatch> {
    const merchantId = tenantOf(actor);
    const kind = kindOf(fileName);
    if (!kind) {
      input.resume();
      throw invalid("supply.fileType", "fileName");
    }
    const goods = await this.ownCardGoods(this.deps.db, merchantId, goodsId, false);
    if (goods.state === "void") {
      input.resume();
      throw conflict("catalog.goodsVoid");
    }
    // An xlsx is spooled to disk and read through the bounded reader: a zip is checked by its central
    // directory, at the end of the file, before anything inflates (issue 38 item 4). A CSV streams as it comes.
    let spooled: string | null = null;
    if (kind === "xlsx") {
      try {
        spooled = await this.spool(input);
      } catch {
        // Cut off, or past the route's upload limit: as before spooling, the file could not be read.
        throw new AppError(CODE.INVALID_PARAMETER, "supply.fileUnreadable", {}, "file");
      }
    }
    const rows = spooled !== null ? readXlsxFileRows(spooled) : readCsvRows(input);
    let batchId: number | null = null;
    const today = this.today();
    let chunk = new Chunk(this.deps.keys);
    // The sweep of interrupted imports (closeInterrupted) leaves a batch alone while its importer beats.
    const heartbeat = setInterval(() => {
      if (batchId !== null) void repo.beatBatch(this.deps.db, batchId).catch(() => undefined);
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const take = async (batch: FileRow[]) => {
      for (const r of batch) {
        const raw = toRawRow(r);
        if (isBlankRow(raw)) continue;
        batchId ??= await repo.insertBatch(this.deps.db, { merchantId, goodsId, fileName, createdBy: actor.userId });
        chunk.add(checkRow(raw, today));
        if (chunk.rows >= CHUNK) {
          await this.landChunk(merchantId, goods, batchId, chunk);
          chunk = new Chunk(this.deps.keys);
          // The embedded database runs on this thread and a chunk never leaves the microtask queue:
          // let other requests (and timers) through between chunks of a long import.
          await setImmediate();
        }
      }
    };
    try {
      const first = await rows.next();
      const head: FileRow[] = first.done ? [] : first.value;
      const header = head[0];
      if (!header || !isTemplateHeader(header.cells)) {
        input.resume();
        throw invalid(header ? "supply.fileHeader" : "supply.fileEmpty", "file");
      }
      await take(head.slice(1));
      for await (const batch of rows) await take(batch);
      if (batchId === null) throw invalid("supply.fileEmpty", "file");
      await this.landChunk(merchantId, goods, batchId, chunk);
      await repo.finishBatch(this.deps.db, batchId, "done", this.deps.clock.now());
    } catch (err) {
      if (batchId !== null) await repo.finishBatch(this.deps.db, batchId, "failed", this.deps.clock.now());
      if (err instanceof UnreadableFile) {
        throw new AppError(CODE.INVALID_PARAMETER, "supply.fileUnreadable", {}, "file");
      }
      if (err instanceof FileTooLarge) throw new AppError(CODE.INVALID_PARAMETER, "supply.fileTooLarge", {}, "file");
      throw err;
    } finally {
      clearInterval(heartbeat);
      await rows.return(undefined);
      if (spooled !== null) await rm(spooled, { force: true });
    }
    return this.batch(actor, batchId);
  }

  /**
   * Removes spooled imports a crash left behind: files older than a day (an import running in another
   * process sharing DATA_DIR is younger than that).
   */
  async sweepSpool(): Promise<number> {
    const dir = this.deps.spoolDir ?? tmpdir();
    // File times are the real clock's, whatever clock the service runs on.
    const before = Date.now() - 24 * 3600_000;
    let removed = 0;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => /^cards-[0-9a-f-]{36}\.xlsx$/.test(n))) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < before) {
        await rm(file, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  /** The request body to a file of its own (removed by the caller): the bounded reader needs random access. */
  private async spool(input: Readable): Promise<string> {
    const dir = this.deps.spoolDir ?? tmpdir();
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `cards-${randomUUID()}.xlsx`);
    try {
      await pipeline(input, createWriteStream(file, { flags: "wx", mode: 0o600 }));
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    return file;
  }

  private async landChunk(
    merchantId: number,
    goods: { id: number; merchantId: number; name: string },
    batchId: number,
    chunk: Chunk,
  ): Promise<void> {
    const { rejects, cards } = chunk;
    await withTx(this.deps.db, async (tx) => {
      // A chunk is all-or-nothing with its counters, so not waiting for the WAL flush risks at most
      // losing a whole recent chunk in a crash, never a half-counted one.
      await sql`SET LOCAL synchronous_commit = off`.execute(tx);
      const head = { merchantId, goodsId: goods.id, batchId };
      const copied = this.deps.copyImports === true && (await repo.copyCards(tx, head, cards));
      const landed = copied ? null : await repo.insertCards(tx, head, cards);
      const skipped = landed ? cards.filter((c) => !landed.has(c.rowNo)) : [];
      const imported = landed ? landed.size : cards.length;
      const holders = await repo.firstHolders(
        tx,
        goods.id,
        skipped.map((c) => c.numberHash),
      );
      const all = [...rejects];
      for (const c of skipped) {
        const holder = holders.get(c.numberHash);
        all.push({
          rowNo: c.rowNo,
          reason: holder?.batchId === batchId ? "duplicateInFile" : "duplicateStored",
          numberMask: c.numberMask,
        });
      }
      await repo.insertRejects(tx, batchId, all);
      await repo.addToBatch(tx, batchId, { rows: chunk.rows, imported, rejected: all.length });
      if (imported > 0) await adjustStock(tx, goods, { stock: imported }, this.deps.clock.now());
    });
  }

  /* ---------- import records ---------- */

  /**
   * Closes imports whose importer died (the process was killed mid-way): batches still `importing` whose
   * heartbeat is older than `staleSeconds`, or than `before` (on the embedded database, this process's
   * start: nothing else can be importing into it). They end `failed` with the counts they reached and a
   * reason that says how to resume: the codes they stored stay, and uploading the same file again stores
   * the rest (the stored ones are rejected as duplicates of stored codes).
   */
  async closeInterrupted(f: { staleSeconds: number; before: Date | null }): Promise<number> {
    const closed = await repo.closeInterruptedBatches(this.deps.db, { ...f, at: this.deps.clock.now() });
    return closed.length;
  }

  private async presentBatches(rows: repo.BatchRow[], lang: Lang = "cn"): Promise<CardBatch[]> {
    const names = await goodsNames(
      this.deps.db,
      rows.map((r) => r.goods_id),
    );
    return rows.map((b) => ({
      id: b.id,
      goodsId: b.goods_id,
      goodsName: names.get(b.goods_id) ?? "",
      fileName: b.file_name,
      status: b.status,
      totalRows: b.total_rows,
      imported: b.imported,
      rejected: b.rejected,
      createdAt: b.created_at.toISOString(),
      finishedAt: b.finished_at ? new Date(b.finished_at).toISOString() : null,
      failReason: b.fail_reason ? renderMessage(b.fail_reason.key, lang, b.fail_reason.params) : null,
    }));
  }

  async batch(actor: Actor, batchId: number, lang: Lang = "cn"): Promise<CardBatch> {
    const row = await repo.findBatch(this.deps.db, tenantOf(actor), batchId);
    if (!row) throw notFound();
    return (await this.presentBatches([row], lang))[0] as CardBatch;
  }

  async batches(
    actor: Actor,
    q: { page: number; pageSize: number; goodsId?: number; status?: string },
    lang: Lang = "cn",
  ): Promise<Page<CardBatch>> {
    const { rows, total } = await repo.listBatches(this.deps.db, tenantOf(actor), q);
    return { list: await this.presentBatches(rows, lang), total, page: q.page, pageSize: q.pageSize };
  }

  /** The rejected rows of one of the supplier's batches, page by page (for the xlsx report). */
  async *rejects(
    actor: Actor,
    batchId: number,
  ): AsyncGenerator<{ row_no: number; reason: string; number_mask: string }[]> {
    const batch = await repo.findBatch(this.deps.db, tenantOf(actor), batchId);
    if (!batch) throw notFound();
    let after = 0;
    for (;;) {
      const page = await repo.rejectsPage(this.deps.db, batchId, after, 2000);
      if (page.length === 0) return;
      yield page;
      after = page[page.length - 1]?.row_no ?? after;
    }
  }

  async report(actor: Actor, q: { page: number; pageSize: number; from?: string; to?: string; goodsId?: number }) {
    const { rows, total } = await repo.importReport(this.deps.db, tenantOf(actor), q);
    const names = await goodsNames(
      this.deps.db,
      rows.map((r) => r.goods_id),
    );
    return {
      list: rows.map((r) => ({
        day: r.day,
        goodsId: r.goods_id,
        goodsName: names.get(r.goods_id) ?? "",
        batches: Number(r.batches),
        imported: Number(r.imported),
        rejected: Number(r.rejected),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /* ---------- codes ---------- */

  private presentCard(row: repo.CardRow): Card {
    return {
      id: row.id,
      goodsId: row.goods_id,
      batchId: row.batch_id,
      cardNumber: row.number_mask,
      cardSecret: MASKED_SECRET,
      expiryDate: row.expires_on,
      state: row.state,
      orderId: row.order_id,
      createdAt: row.created_at.toISOString(),
      soldAt: row.sold_at ? new Date(row.sold_at).toISOString() : null,
    };
  }

  /** A supplier's codes of one goods, always masked. */
  async cards(actor: Actor, goodsId: number, q: CardQuery): Promise<Page<Card>> {
    const merchantId = tenantOf(actor);
    await this.ownCardGoods(this.deps.db, merchantId, goodsId, false);
    const hash = q.cardNumber ? this.deps.keys.numberHash(q.cardNumber) : null;
    const { rows, total } = await repo.listCards(this.deps.db, merchantId, goodsId, q, hash);
    return { list: rows.map((r) => this.presentCard(r)), total, page: q.page, pageSize: q.pageSize };
  }

  /** Voids unsold codes; stock falls by exactly the number voided. */
  async voidCards(actor: Actor, goodsId: number, ids: number[]): Promise<{ voided: number }> {
    const merchantId = tenantOf(actor);
    await this.ownCardGoods(this.deps.db, merchantId, goodsId, false);
    const now = this.deps.clock.now();
    const { voided, lowStock } = await withTx(this.deps.db, async (tx) => {
      const taken = await repo.lockAvailable(tx, merchantId, goodsId, [...new Set(ids)]);
      if (taken.length !== new Set(ids).size) throw conflict("supply.cardNotAvailable", "ids");
      await repo.markVoid(tx, taken, now);
      const goods = await this.ownCardGoods(tx, merchantId, goodsId, true);
      const low = await adjustStock(tx, goods, { stock: -taken.length, voided: taken.length }, now);
      await audit(tx, {
        actorUserId: actor.userId,
        action: "card.void",
        subjectType: "goods",
        subjectId: goodsId,
        detail: { cardIds: taken },
      });
      return { voided: taken.length, lowStock: low };
    });
    await this.afterLowStock(lowStock);
    return { voided };
  }

  /**
   * Moves every available code whose expiry day has passed to 'expired', with the goods' counters (stock
   * down, expired up) in the same transaction, a chunk at a time. Goods rows are locked in id order after
   * the code rows, the order every other stock change locks them in. Returns how many codes expired.
   */
  async expireDue(): Promise<number> {
    const now = this.deps.clock.now();
    const today = platformDay(now);
    let total = 0;
    for (;;) {
      const { expired, notices } = await withTx(this.deps.db, async (tx) => {
        const rows = await repo.lockExpired(tx, today, CHUNK);
        const byGoods = new Map<number, number[]>();
        for (const r of rows) byGoods.set(r.goodsId, [...(byGoods.get(r.goodsId) ?? []), r.id]);
        const lows: LowStock[] = [];
        for (const goodsId of [...byGoods.keys()].sort((a, b) => a - b)) {
          const ids = byGoods.get(goodsId) ?? [];
          const goods = await lockGoodsForStock(tx, goodsId, true);
          if (!goods) continue;
          await repo.markExpired(tx, ids, now);
          const low = await adjustStock(tx, goods, { stock: -ids.length, expired: ids.length }, now);
          if (low) lows.push(low);
        }
        return { expired: rows.length, notices: lows };
      });
      for (const n of notices) await this.afterLowStock(n);
      total += expired;
      if (expired < CHUNK) return total;
    }
  }

  /** Sends the low-stock notice of a committed change; a mail failure never undoes the change. */
  async afterLowStock(notice: LowStock | null): Promise<void> {
    if (notice) await notifyLowStock(this.deps.db, this.deps.mailer, notice).catch(() => undefined);
  }

  /** Goods the purchaser bought codes of (its resale goods), with how many. */
  async boughtGoods(actor: Actor, q: ResaleQuery) {
    const { rows, total } = await repo.boughtGoods(this.deps.db, tenantOf(actor), {
      page: q.page,
      pageSize: q.pageSize,
      from: q.from ? startOfPlatformDay(q.from) : undefined,
      until: q.to ? new Date(startOfPlatformDay(q.to).getTime() + 86_400_000) : undefined,
      matching: q.keyword ? goodsMatching(q.keyword, sql.ref("goods_id")) : undefined,
    });
    return {
      rows: rows.map((r) => ({
        goodsId: r.goods_id,
        bought: Number(r.bought),
        lastBoughtAt: new Date(r.last_bought_at).toISOString(),
      })),
      total,
    };
  }

  /** Codes the purchaser bought, masked. */
  async boughtCards(
    actor: Actor,
    q: { page: number; pageSize: number; orderId?: string; goodsId?: number },
  ): Promise<Page<Card>> {
    const { rows, total } = await repo.listBoughtCards(this.deps.db, tenantOf(actor), q);
    return { list: rows.map((r) => this.presentCard(r)), total, page: q.page, pageSize: q.pageSize };
  }

  /**
   * Reveals codes in full to the purchaser that bought them, one audit row per code. Any id that is not
   * a code this purchaser bought → 404 for the whole request, so nothing about others' codes leaks.
   */
  async reveal(actor: Actor, ids: number[]): Promise<RevealedCard[]> {
    const buyer = tenantOf(actor);
    const unique = [...new Set(ids)];
    return withTx(this.deps.db, async (tx) => {
      const rows = await repo.boughtSealed(tx, buyer, unique);
      if (rows.length !== unique.length) throw notFound();
      const out: RevealedCard[] = [];
      for (const r of rows) {
        const { number, secret } = this.deps.keys.unseal(r.sealed);
        await audit(tx, {
          actorUserId: actor.userId,
          action: "card.reveal",
          subjectType: "card",
          subjectId: r.id,
          detail: { goodsId: r.goods_id, orderId: r.order_id, merchantId: buyer },
        });
        out.push({
          id: r.id,
          goodsId: r.goods_id,
          cardNumber: number,
          cardSecret: secret,
          expiryDate: r.expires_on,
          orderId: r.order_id,
        });
      }
      return out;
    });
  }
}
