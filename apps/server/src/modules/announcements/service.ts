import {
  CODE,
  type AnnouncementReq,
  type OpsAnnouncement,
  type Page,
  type ServiceContact,
  type ServiceContactReq,
  type TextMessPage,
} from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { AppError } from "../../platform/http/errors";
import { iso } from "../../platform/present";
import * as repo from "./repo";
import { pageWindow } from "../../db/paginate";

const notFound = () => new AppError(CODE.NOT_FOUND, "announcement.notFound");

/**
 * The platform's customer-service contact (getQwContact) and announcements to merchants (textMess):
 * the operator sets and publishes, a merchant reads. Read state is per merchant (any of its staff
 * reading marks it read for the merchant), and a merchant sees only the announcements for its roles.
 */
export class AnnouncementsService {
  constructor(private readonly deps: { db: Db }) {}

  async contact(): Promise<ServiceContact | null> {
    const row = await repo.findContact(this.deps.db);
    return row ? { name: row.name, qrUrl: row.qr_url, phone: row.phone, updatedAt: iso(row.updated_at) } : null;
  }

  async setContact(operator: Actor, req: ServiceContactReq): Promise<ServiceContact> {
    const row = await withTx(this.deps.db, async (tx) => {
      const saved = await repo.saveContact(tx, req, operator.userId);
      await audit(tx, {
        actorUserId: operator.userId,
        action: "announcement.contact",
        subjectType: "serviceContact",
        subjectId: 1,
        detail: { ...req },
      });
      return saved;
    });
    return { name: row.name, qrUrl: row.qr_url, phone: row.phone, updatedAt: iso(row.updated_at) };
  }

  async publish(operator: Actor, req: AnnouncementReq): Promise<OpsAnnouncement> {
    const row = await withTx(this.deps.db, async (tx) => {
      const a = await repo.insertAnnouncement(tx, req, operator.userId);
      await audit(tx, {
        actorUserId: operator.userId,
        action: "announcement.publish",
        subjectType: "announcement",
        subjectId: a.id,
        detail: { title: req.title, audience: req.audience },
      });
      return a;
    });
    return {
      id: String(row.id),
      title: row.title,
      body: row.body,
      audience: row.audience,
      publishedAt: iso(row.published_at),
      withdrawnAt: null,
      reads: 0,
    };
  }

  async withdraw(operator: Actor, id: number): Promise<void> {
    await withTx(this.deps.db, async (tx) => {
      const row = await repo.withdrawAnnouncement(tx, id);
      if (!row) {
        if (await repo.findAnnouncement(tx, id)) return; // withdrawn already: nothing to do
        throw notFound();
      }
      await audit(tx, {
        actorUserId: operator.userId,
        action: "announcement.withdraw",
        subjectType: "announcement",
        subjectId: id,
      });
    });
  }

  async opsList(q: { page: number; pageSize: number }): Promise<Page<OpsAnnouncement>> {
    const { rows, total } = await repo.opsAnnouncementPage(this.deps.db, {
      ...pageWindow(q),
    });
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        title: r.title,
        body: r.body,
        audience: r.audience,
        publishedAt: iso(r.published_at),
        withdrawnAt: r.withdrawn_at ? iso(r.withdrawn_at) : null,
        reads: Number(r.reads ?? 0),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  /** textMess: the merchant's announcements, newest first, with read state and the unread count. */
  async textMess(
    actor: Actor,
    q: { page: number; pageSize: number; unread?: "true" | "false" | undefined },
  ): Promise<TextMessPage> {
    const merchantId = tenantOf(actor);
    const { rows, total, unread } = await repo.merchantAnnouncementPage(
      this.deps.db,
      merchantId,
      actor.roles,
      { unreadOnly: q.unread === "true" },
      pageWindow(q),
    );
    return {
      list: rows.map((r) => ({
        id: String(r.id),
        title: r.title,
        body: r.body,
        publishedAt: iso(r.published_at),
        read: Boolean(r.read),
      })),
      total,
      page: q.page,
      pageSize: q.pageSize,
      unread,
    };
  }

  /** Marks one announcement read for the merchant; one it may not see is not found. Idempotent. */
  async markRead(actor: Actor, id: number): Promise<void> {
    const merchantId = tenantOf(actor);
    if (!(await repo.visibleTo(this.deps.db, id, merchantId, actor.roles))) throw notFound();
    await repo.markRead(this.deps.db, merchantId, [id]);
  }

  async markAllRead(actor: Actor): Promise<{ marked: number }> {
    const merchantId = tenantOf(actor);
    const ids = await repo.unreadIds(this.deps.db, merchantId, actor.roles);
    await repo.markRead(this.deps.db, merchantId, ids);
    return { marked: ids.length };
  }
}
