import { IMAGE_MAX_BYTES, type CommitLetter } from "@tessera/contracts";
import { randomUUID } from "node:crypto";
import { withTx, type Db } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { invalid, notFound } from "../../platform/http/errors";
import { imageInfo } from "../../platform/images";
import type { FileStorage } from "../../platform/storage";
import * as repo from "./commit-letters.repo";

export interface CommitLetterDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
}

/** What the bytes are: a PDF (by its header) or an accepted image; null for anything else. */
async function kindOf(data: Buffer): Promise<string | null> {
  if (data.subarray(0, 5).toString("latin1") === "%PDF-") return "application/pdf";
  const img = await imageInfo(data);
  return img && img.format !== "gif" ? `image/${img.format}` : null;
}

const safeName = (name: string) => name.replace(/[\\/\r\n"]/g, "_").slice(0, 120) || "letter";

/**
 * Commitment letters (sale/commitLetter): the purchaser uploads its signed undertaking as a PDF or a
 * photo; each upload is kept as a new version, so what was on file at any time can be shown.
 */
export class CommitLetterService {
  constructor(private readonly deps: CommitLetterDeps) {}

  async list(actor: Actor): Promise<CommitLetter[]> {
    const rows = await repo.commitLettersOf(this.deps.db, tenantOf(actor));
    return rows.map((r, i) => ({
      id: String(r.id),
      version: rows.length - i,
      fileName: r.file_name,
      contentType: r.content_type,
      sizeBytes: r.size_bytes,
      uploadedBy: r.uploader_email,
      uploadedAt: r.uploaded_at.toISOString(),
      url: `/api/card-user/commitLetters/${r.id}`,
    }));
  }

  async upload(actor: Actor, file: { filename: string; data: Buffer }): Promise<CommitLetter[]> {
    const merchantId = tenantOf(actor);
    if (file.data.length === 0 || file.data.length > IMAGE_MAX_BYTES) throw invalid("agreement.letterInvalid", "file");
    const contentType = await kindOf(file.data);
    if (!contentType) throw invalid("agreement.letterInvalid", "file");
    const key = `commit-letters/${merchantId}/${randomUUID()}`;
    await this.deps.storage.put(key, file.data);
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const id = await repo.insertCommitLetter(tx, {
        merchantId,
        storageKey: key,
        contentType,
        fileName: safeName(file.filename),
        sizeBytes: file.data.length,
        uploadedBy: actor.userId,
        now,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commitLetter.upload",
        subjectType: "commitLetter",
        subjectId: id,
      });
    });
    return this.list(actor);
  }

  async read(actor: Actor, id: number): Promise<{ data: Buffer; contentType: string; fileName: string }> {
    const row = await repo.findCommitLetter(this.deps.db, tenantOf(actor), id);
    const data = row ? await this.deps.storage.get(row.storage_key) : null;
    if (!row || !data) throw notFound();
    return { data, contentType: row.content_type, fileName: row.file_name };
  }
}
