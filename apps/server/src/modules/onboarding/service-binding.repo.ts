import type { Executor } from "../../db/tx";
import { paginate } from "../../db/paginate";

/** SQL of service-provider bindings. Every query of a merchant's rows takes its merchant id (the tenant). */

const bindingColumns = [
  "b.id",
  "b.merchant_id",
  "b.provider_id",
  "b.kind",
  "b.bound_at",
  "m.name as merchant_name",
  "m.real_name_state as merchant_real_name_state",
  "p.name as provider_name",
] as const;

function bindings(db: Executor) {
  return db
    .selectFrom("service_bindings as b")
    .innerJoin("merchants as m", "m.id", "b.merchant_id")
    .innerJoin("merchants as p", "p.id", "b.provider_id")
    .where("b.state", "=", "active");
}

/** Whether the provider has an active binding with the merchant. */
export async function serves(db: Executor, providerId: number, merchantId: number): Promise<boolean> {
  const row = await db
    .selectFrom("service_bindings")
    .select("id")
    .where("provider_id", "=", providerId)
    .where("merchant_id", "=", merchantId)
    .where("state", "=", "active")
    .executeTakeFirst();
  return row !== undefined;
}

export function activeBindingOf(db: Executor, merchantId: number, kind: "brand" | "vendor") {
  return bindings(db)
    .select(bindingColumns)
    .where("b.merchant_id", "=", merchantId)
    .where("b.kind", "=", kind)
    .executeTakeFirst();
}
export type BindingRow = NonNullable<Awaited<ReturnType<typeof activeBindingOf>>>;

/** An active binding the caller is a party of (as the merchant or as its provider). */
export function bindingOfParty(db: Executor, id: number, partyId: number) {
  return bindings(db)
    .select(bindingColumns)
    .where("b.id", "=", id)
    .where((eb) => eb.or([eb("b.merchant_id", "=", partyId), eb("b.provider_id", "=", partyId)]))
    .executeTakeFirst();
}

export async function insertBinding(
  tx: Executor,
  b: { merchantId: number; providerId: number; kind: "brand" | "vendor"; boundBy: number; now: Date },
): Promise<number> {
  const row = await tx
    .insertInto("service_bindings")
    .values({
      merchant_id: b.merchantId,
      provider_id: b.providerId,
      kind: b.kind,
      state: "active",
      bound_by: b.boundBy,
      bound_at: b.now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function removeBinding(tx: Executor, id: number, removedBy: number, now: Date): Promise<boolean> {
  const r = await tx
    .updateTable("service_bindings")
    .set({ state: "removed", removed_by: removedBy, removed_at: now })
    .where("id", "=", id)
    .where("state", "=", "active")
    .executeTakeFirst();
  return r.numUpdatedRows === 1n;
}

export async function servedBy(
  db: Executor,
  providerId: number,
  f: { keyword?: string; kind?: "brand" | "vendor"; limit: number; offset: number },
) {
  let q = bindings(db).where("b.provider_id", "=", providerId);
  if (f.kind) q = q.where("b.kind", "=", f.kind);
  if (f.keyword) {
    const kw = f.keyword;
    const like = `%${kw.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([...(/^\d{1,18}$/.test(kw) ? [eb("m.id", "=", Number(kw))] : []), eb("m.name", "ilike", like)]),
    );
  }
  return paginate(q.select(bindingColumns).orderBy("b.id", "desc"), q, f);
}
