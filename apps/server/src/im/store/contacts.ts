import type { Executor, Tx } from "../../db/tx";

/** Contacts (both directions of a friendship), pending requests and each user's block list. */

export async function contactPage(
  db: Executor,
  owner: string,
  after: string | null,
  limit: number,
): Promise<{ contact: string; remark: string }[]> {
  let q = db.selectFrom("im_contacts").select(["contact", "remark"]).where("owner", "=", owner);
  if (after !== null) q = q.where("contact", ">", after);
  return q.orderBy("contact").limit(limit).execute();
}

export async function contactCount(db: Executor, owner: string): Promise<number> {
  const r = await db
    .selectFrom("im_contacts")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("owner", "=", owner)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

export async function isContact(db: Executor, owner: string, contact: string): Promise<boolean> {
  return (
    (await db
      .selectFrom("im_contacts")
      .select("owner")
      .where("owner", "=", owner)
      .where("contact", "=", contact)
      .executeTakeFirst()) !== undefined
  );
}

export async function addPair(tx: Tx, a: string, b: string, now: Date): Promise<void> {
  await tx
    .insertInto("im_contacts")
    .values([
      { owner: a, contact: b, created_at: now },
      { owner: b, contact: a, created_at: now },
    ])
    .onConflict((oc) => oc.columns(["owner", "contact"]).doNothing())
    .execute();
}

export async function removePair(tx: Tx, a: string, b: string): Promise<number> {
  const r = await tx
    .deleteFrom("im_contacts")
    .where((eb) =>
      eb.or([
        eb.and([eb("owner", "=", a), eb("contact", "=", b)]),
        eb.and([eb("owner", "=", b), eb("contact", "=", a)]),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export async function setRemark(tx: Tx, owner: string, contact: string, remark: string): Promise<boolean> {
  const r = await tx
    .updateTable("im_contacts")
    .set({ remark })
    .where("owner", "=", owner)
    .where("contact", "=", contact)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function upsertRequest(
  tx: Tx,
  requester: string,
  target: string,
  reason: string,
  now: Date,
): Promise<void> {
  await tx
    .insertInto("im_contact_requests")
    .values({ requester, target, reason, created_at: now })
    .onConflict((oc) => oc.columns(["requester", "target"]).doUpdateSet({ reason, created_at: now }))
    .execute();
}

export async function takeRequest(tx: Tx, requester: string, target: string): Promise<boolean> {
  const r = await tx
    .deleteFrom("im_contact_requests")
    .where("requester", "=", requester)
    .where("target", "=", target)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function blockList(db: Executor, owner: string): Promise<string[]> {
  const rows = await db
    .selectFrom("im_user_blocks")
    .select("blocked")
    .where("owner", "=", owner)
    .orderBy("created_at")
    .orderBy("blocked")
    .execute();
  return rows.map((r) => r.blocked);
}

export async function addBlocks(tx: Tx, owner: string, usernames: readonly string[], now: Date): Promise<void> {
  if (usernames.length === 0) return;
  await tx
    .insertInto("im_user_blocks")
    .values(usernames.map((blocked) => ({ owner, blocked, created_at: now })))
    .onConflict((oc) => oc.columns(["owner", "blocked"]).doNothing())
    .execute();
}

export async function removeBlocks(tx: Tx, owner: string, usernames: readonly string[]): Promise<void> {
  if (usernames.length === 0) return;
  await tx
    .deleteFrom("im_user_blocks")
    .where("owner", "=", owner)
    .where("blocked", "in", [...usernames])
    .execute();
}

export async function hasBlocked(db: Executor, owner: string, other: string): Promise<boolean> {
  return (
    (await db
      .selectFrom("im_user_blocks")
      .select("owner")
      .where("owner", "=", owner)
      .where("blocked", "=", other)
      .executeTakeFirst()) !== undefined
  );
}
