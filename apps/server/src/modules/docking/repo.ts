import { sql } from "kysely";
import { paginate } from "../../db/paginate";
import type { Executor } from "../../db/tx";
import type { DockingStatusColumn } from "./tables";

/** SQL of dockings and brand authorisations. Each read names the merchant it is for. */

export async function insertDocking(
  tx: Executor,
  d: { purchaserId: number; supplierId: number; createdBy: number },
): Promise<number> {
  const row = await tx
    .insertInto("dockings")
    .values({ purchaser_merchant_id: d.purchaserId, supplier_merchant_id: d.supplierId, created_by: d.createdBy })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A docking the merchant is a party of, locked for a change. */
export function lockDockingOf(tx: Executor, id: number, merchantId: number) {
  return tx
    .selectFrom("dockings")
    .selectAll()
    .where("id", "=", id)
    .where((eb) => eb.or([eb("purchaser_merchant_id", "=", merchantId), eb("supplier_merchant_id", "=", merchantId)]))
    .forUpdate()
    .executeTakeFirst();
}

export type DockingRow = NonNullable<Awaited<ReturnType<typeof lockDockingOf>>>;

export function findDocking(db: Executor, id: number) {
  return db.selectFrom("dockings").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function updateDocking(
  tx: Executor,
  id: number,
  c: {
    status?: DockingStatusColumn;
    rejectReason?: string | null;
    decidedAt?: Date;
    purchaserSigned?: { at: Date; by: number; phone: string };
    supplierSigned?: { at: Date; by: number; phone: string };
  },
): Promise<void> {
  await tx
    .updateTable("dockings")
    .set({
      ...(c.status !== undefined && { status: c.status }),
      ...(c.rejectReason !== undefined && { reject_reason: c.rejectReason }),
      ...(c.decidedAt !== undefined && { decided_at: c.decidedAt }),
      ...(c.purchaserSigned && {
        purchaser_signed_at: c.purchaserSigned.at,
        purchaser_signed_by: c.purchaserSigned.by,
        purchaser_sign_phone: c.purchaserSigned.phone,
      }),
      ...(c.supplierSigned && {
        supplier_signed_at: c.supplierSigned.at,
        supplier_signed_by: c.supplierSigned.by,
        supplier_sign_phone: c.supplierSigned.phone,
      }),
    })
    .where("id", "=", id)
    .execute();
}

/**
 * The purchasers a supplier approved a docking with, as id and name (by name, then id), for another
 * module's purchaser picker (the rebate rule dialog): the same set the supplier's approved docking list
 * shows, each purchaser once.
 */
export function approvedPurchasers(
  db: Executor,
  supplierId: number,
  limit: number,
): Promise<{ id: number; name: string }[]> {
  return db
    .selectFrom("dockings as d")
    .innerJoin("merchants as m", "m.id", "d.purchaser_merchant_id")
    .select(["m.id", "m.name"])
    .distinct()
    .where("d.supplier_merchant_id", "=", supplierId)
    .where("d.status", "=", "approved")
    .orderBy("m.name")
    .orderBy("m.id")
    .limit(limit)
    .execute();
}

/** The docking through which a purchaser may buy from a supplier: approved and signed by both sides. */
export function dockedPair(db: Executor, purchaserId: number, supplierId: number) {
  return db
    .selectFrom("dockings")
    .select("id")
    .where("purchaser_merchant_id", "=", purchaserId)
    .where("supplier_merchant_id", "=", supplierId)
    .where("status", "=", "approved")
    .where("purchaser_signed_at", "is not", null)
    .where("supplier_signed_at", "is not", null)
    .executeTakeFirst();
}

export async function dockingPage(
  db: Executor,
  f: {
    merchantId: number;
    side?: "purchaser" | "supplier" | undefined;
    status?: DockingStatusColumn | undefined;
    offset: number;
    limit: number;
  },
) {
  let q = db.selectFrom("dockings");
  q =
    f.side === "purchaser"
      ? q.where("purchaser_merchant_id", "=", f.merchantId)
      : f.side === "supplier"
        ? q.where("supplier_merchant_id", "=", f.merchantId)
        : q.where((eb) =>
            eb.or([eb("purchaser_merchant_id", "=", f.merchantId), eb("supplier_merchant_id", "=", f.merchantId)]),
          );
  if (f.status) q = q.where("status", "=", f.status);
  return paginate(q.selectAll().orderBy("id", "desc"), q, f);
}

/* ---------- brand authorisation ---------- */

export async function insertBrandAuth(
  tx: Executor,
  a: {
    brandId: number;
    granteeId: number;
    kind: "purchaser" | "provider";
    remark: string;
    validUntil: string | null;
    createdBy: number;
  },
): Promise<number> {
  const row = await tx
    .insertInto("brand_auths")
    .values({
      brand_merchant_id: a.brandId,
      grantee_merchant_id: a.granteeId,
      grantee_kind: a.kind,
      remark: a.remark,
      valid_until: a.validUntil,
      created_by: a.createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findBrandAuth(db: Executor, id: number) {
  return db
    .selectFrom("brand_auths")
    .select([
      "id",
      "brand_merchant_id",
      "grantee_merchant_id",
      "grantee_kind",
      "remark",
      "active",
      "created_at",
      sql<string | null>`to_char(valid_until, 'YYYY-MM-DD')`.as("valid_until"),
    ])
    .where("id", "=", id)
    .executeTakeFirst();
}

export type BrandAuthRow = NonNullable<Awaited<ReturnType<typeof findBrandAuth>>>;

export async function updateBrandAuth(
  tx: Executor,
  id: number,
  brandId: number,
  c: { remark?: string | undefined; validUntil?: string | null | undefined; revokedAt?: Date },
): Promise<boolean> {
  const changes = {
    ...(c.remark !== undefined && { remark: c.remark }),
    ...(c.validUntil !== undefined && { valid_until: c.validUntil }),
    ...(c.revokedAt && { active: false, revoked_at: c.revokedAt }),
  };
  // An UPDATE with no column is a syntax error; the request schema refuses "nothing to change" first.
  if (Object.keys(changes).length === 0) throw new Error("updateBrandAuth: nothing to change");
  const res = await tx
    .updateTable("brand_auths")
    .set(changes)
    .where("id", "=", id)
    .where("brand_merchant_id", "=", brandId)
    .where("active", "=", true)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A live authorisation of the brand for the grantee on `day` (UTC+8 calendar day). */
export function liveBrandAuth(db: Executor, brandId: number, granteeId: number, day: string) {
  return db
    .selectFrom("brand_auths")
    .select("id")
    .where("brand_merchant_id", "=", brandId)
    .where("grantee_merchant_id", "=", granteeId)
    .where("active", "=", true)
    .where((eb) => eb.or([eb("valid_until", "is", null), eb("valid_until", ">=", sql<string>`${day}::date`)]))
    .executeTakeFirst();
}

export async function brandAuthPage(
  db: Executor,
  f: { merchantId: number; side: "brand" | "grantee"; offset: number; limit: number },
) {
  const q = db
    .selectFrom("brand_auths")
    .where(f.side === "brand" ? "brand_merchant_id" : "grantee_merchant_id", "=", f.merchantId);
  const { rows, total } = await paginate(q.select("id").orderBy("id", "desc"), q, f);
  return { ids: rows.map((r) => r.id), total };
}

/**
 * Dockings approved in [from, to) that link a served party: a served brand's new purchasers and a served
 * vendor's new suppliers (a service provider's LinkData), per platform day and per served merchant.
 */
export async function newDockings(
  db: Executor,
  f: { brandIds: readonly number[]; vendorIds: readonly number[]; from: Date; to: Date },
): Promise<{ days: Map<string, number>; merchants: { merchantId: number; role: "brand" | "vendor"; n: number }[] }> {
  const brands = [...f.brandIds];
  const vendors = [...f.vendorIds];
  const approved = sql`d.status = 'approved' AND d.decided_at >= ${f.from} AND d.decided_at < ${f.to}`;
  const [days, merchants] = await Promise.all([
    sql<{ day: string; n: string }>`
      SELECT to_char(d.decided_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day, COUNT(*)::text AS n FROM dockings d
      WHERE ${approved} AND (d.supplier_merchant_id = ANY(${brands}::bigint[]) OR d.purchaser_merchant_id = ANY(${vendors}::bigint[]))
      GROUP BY 1`.execute(db),
    sql<{ merchant_id: number; role: "brand" | "vendor"; n: string }>`
      SELECT d.supplier_merchant_id AS merchant_id, 'brand' AS role, COUNT(*)::text AS n FROM dockings d
      WHERE ${approved} AND d.supplier_merchant_id = ANY(${brands}::bigint[]) GROUP BY 1
      UNION ALL
      SELECT d.purchaser_merchant_id, 'vendor', COUNT(*)::text FROM dockings d
      WHERE ${approved} AND d.purchaser_merchant_id = ANY(${vendors}::bigint[]) GROUP BY 1`.execute(db),
  ]);
  return {
    days: new Map(days.rows.map((r) => [r.day, Number(r.n)])),
    merchants: merchants.rows.map((r) => ({ merchantId: Number(r.merchant_id), role: r.role, n: Number(r.n) })),
  };
}
