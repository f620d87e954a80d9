import type { Executor } from "../../db/tx";

export interface NewMerchant {
  name: string;
  version: "domestic" | "international";
  country: string | null;
  currency: "CNY" | "USD" | "HKD";
  roles: string[];
}

export async function insertMerchant(tx: Executor, m: NewMerchant): Promise<number> {
  const row = await tx.insertInto("merchants").values(m).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export function findMerchant(db: Executor, merchantId: number) {
  return db.selectFrom("merchants").selectAll().where("id", "=", merchantId).executeTakeFirst();
}
