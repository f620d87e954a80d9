import { sql, type SqlBool } from "kysely";
import type { AnnouncementAudience, AnnouncementReq, MerchantRole, ServiceContactReq } from "@tessera/contracts";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";

/** SQL of the announcements module: the one contact row, announcements and their per-merchant reads. */

export function findContact(db: Executor) {
  return db
    .selectFrom("platform_service_contact")
    .select(["name", "qr_url", "phone", "updated_at"])
    .where("id", "=", 1)
    .executeTakeFirst();
}

export async function saveContact(db: Executor, c: ServiceContactReq, userId: number) {
  return db
    .insertInto("platform_service_contact")
    .values({ id: 1, name: c.name, qr_url: c.qrUrl, phone: c.phone, updated_by: userId, updated_at: sql<Date>`now()` })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet({
        name: c.name,
        qr_url: c.qrUrl,
        phone: c.phone,
        updated_by: userId,
        updated_at: sql<Date>`now()`,
      }),
    )
    .returning(["name", "qr_url", "phone", "updated_at"])
    .executeTakeFirstOrThrow();
}

export function insertAnnouncement(db: Executor, a: AnnouncementReq, userId: number) {
  return db
    .insertInto("platform_announcements")
    .values({ title: a.title, body: a.body, audience: a.audience, published_by: userId })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Withdraws a live announcement; undefined when there is none by this id (or it was withdrawn already). */
export function withdrawAnnouncement(db: Executor, id: number) {
  return db
    .updateTable("platform_announcements")
    .set({ withdrawn_at: sql<Date>`now()` })
    .where("id", "=", id)
    .where("withdrawn_at", "is", null)
    .returningAll()
    .executeTakeFirst();
}

export function findAnnouncement(db: Executor, id: number) {
  return db.selectFrom("platform_announcements").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function opsAnnouncementPage(db: Executor, page: { offset: number; limit: number }) {
  return paginate(
    db
      .selectFrom("platform_announcements as a")
      .selectAll("a")
      .select((eb) =>
        eb
          .selectFrom("platform_announcement_reads as r")
          .whereRef("r.announcement_id", "=", "a.id")
          .select(eb.fn.countAll<string>().as("n"))
          .as("reads"),
      )
      .orderBy("a.id", "desc"),
    db.selectFrom("platform_announcements"),
    page,
  );
}

/** The live announcements meant for a merchant with these roles. */
function forMerchant(db: Executor, merchantId: number, roles: readonly MerchantRole[]) {
  const audiences: AnnouncementAudience[] = ["all", ...roles];
  return db
    .selectFrom("platform_announcements as a")
    .leftJoin("platform_announcement_reads as r", (j) =>
      j.onRef("r.announcement_id", "=", "a.id").on("r.merchant_id", "=", merchantId),
    )
    .where("a.withdrawn_at", "is", null)
    .where("a.audience", "in", audiences);
}

export async function merchantAnnouncementPage(
  db: Executor,
  merchantId: number,
  roles: readonly MerchantRole[],
  f: { unreadOnly: boolean },
  page: { offset: number; limit: number },
) {
  const base = forMerchant(db, merchantId, roles);
  const listed = f.unreadOnly ? base.where("r.read_at", "is", null) : base;
  const [rows, count, unread] = await Promise.all([
    listed
      .select(["a.id", "a.title", "a.body", "a.published_at", sql<SqlBool>`r.read_at IS NOT NULL`.as("read")])
      .orderBy("a.published_at", "desc")
      .orderBy("a.id", "desc")
      .offset(page.offset)
      .limit(page.limit)
      .execute(),
    listed.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
    base
      .where("r.read_at", "is", null)
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n), unread: Number(unread.n) };
}

/** Whether a live announcement with this id is meant for the merchant. */
export async function visibleTo(
  db: Executor,
  id: number,
  merchantId: number,
  roles: readonly MerchantRole[],
): Promise<boolean> {
  return (
    (await forMerchant(db, merchantId, roles).select("a.id").where("a.id", "=", id).executeTakeFirst()) !== undefined
  );
}

/** Marks read; a second time changes nothing. */
export async function markRead(db: Executor, merchantId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .insertInto("platform_announcement_reads")
    .values(ids.map((id) => ({ announcement_id: id, merchant_id: merchantId })))
    .onConflict((oc) => oc.columns(["merchant_id", "announcement_id"]).doNothing())
    .execute();
}

/** The ids of the live announcements meant for the merchant that it has not read. */
export async function unreadIds(db: Executor, merchantId: number, roles: readonly MerchantRole[]): Promise<number[]> {
  const rows = await forMerchant(db, merchantId, roles).where("r.read_at", "is", null).select("a.id").execute();
  return rows.map((r) => r.id);
}
