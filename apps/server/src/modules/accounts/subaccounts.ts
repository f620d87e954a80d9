import {
  CODE,
  MENU_KEY_RE,
  type MyMenusReply,
  type Page,
  type SubAccount,
  type SubAddReq,
  type SubSearchQuery,
  type SubUpdateReq,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db } from "../../db/tx";
import type { AccountsIm } from "./service";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import type { PasswordHasher } from "../../platform/crypto/passwords";
import { AppError, conflict, invalid, notFound } from "../../platform/http/errors";
import { revokeUserSessions } from "./repo";
import * as repo from "./subaccounts.repo";
import { pageWindow } from "../../db/paginate";

export interface SubAccountsDeps {
  db: Db;
  hasher: PasswordHasher;
  clock: Clock;
  im: Pick<AccountsIm, "ensureImUser" | "imUserOfAccount">;
}

function present(row: repo.SubAccountRow): SubAccount {
  return {
    passportId: String(row.id),
    email: row.email,
    name: row.display_name ?? "",
    menus: row.menus ?? [],
    disabled: row.disabled_at !== null,
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * Sub-accounts (sub-passports, spec 01 §7 passport/sub): the main account of a merchant adds users who
 * log in with their own password and reach only the pages they were given. Their actions are theirs:
 * every session and audit row carries their own user id.
 */
export class SubAccountsService {
  constructor(private readonly deps: SubAccountsDeps) {}

  /** Only a merchant's main account manages sub-accounts; a sub-account cannot widen its own menus. */
  private ownerTenant(actor: Actor): number {
    const merchantId = tenantOf(actor);
    if (actor.menus !== null) throw new AppError(CODE.FORBIDDEN, "sub.ownerOnly");
    return merchantId;
  }

  /** The pages given must belong to areas the merchant can act in (its roles). */
  private checkMenus(actor: Actor, menus: readonly string[]): string[] {
    const unique = [...new Set(menus)];
    for (const menu of unique) {
      const area = menu.split("/")[0] ?? "";
      if (!MENU_KEY_RE.test(menu) || !(actor.roles as readonly string[]).includes(area)) {
        throw invalid("sub.menuInvalid", "menus", { menu });
      }
    }
    return unique;
  }

  async search(actor: Actor, q: SubSearchQuery): Promise<Page<SubAccount>> {
    const merchantId = this.ownerTenant(actor);
    const { total, rows } = await repo.searchSubAccounts(this.deps.db, merchantId, {
      ...(q.keyword ? { keyword: q.keyword } : {}),
      ...pageWindow(q),
    });
    return { list: rows.map(present), total, page: q.page, pageSize: q.pageSize };
  }

  async add(actor: Actor, req: SubAddReq): Promise<SubAccount> {
    const merchantId = this.ownerTenant(actor);
    const menus = this.checkMenus(actor, req.menus);
    const passwordHash = await this.deps.hasher.hash(req.password);
    const now = this.deps.clock.now();
    try {
      return await withTx(this.deps.db, async (tx) => {
        const userId = await repo.insertSubAccount(tx, {
          merchantId,
          email: req.email,
          name: req.name,
          passwordHash,
          menus,
        });
        await this.deps.im.ensureImUser(tx, this.deps.im.imUserOfAccount(userId), { nickname: req.name, now });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "subAccount.add",
          subjectType: "user",
          subjectId: userId,
          detail: { menus },
        });
        const row = await repo.findSubAccount(tx, merchantId, userId);
        if (!row) throw notFound();
        return present(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("account.emailTaken", "email");
      throw err;
    }
  }

  async update(actor: Actor, req: SubUpdateReq): Promise<SubAccount> {
    const merchantId = this.ownerTenant(actor);
    const userId = Number(req.passportId);
    const menus = req.menus ? this.checkMenus(actor, req.menus) : undefined;
    const passwordHash = req.password !== undefined ? await this.deps.hasher.hash(req.password) : undefined;
    const now = this.deps.clock.now();
    return withTx(this.deps.db, async (tx) => {
      const before = await repo.findSubAccount(tx, merchantId, userId);
      // Another merchant's user and a missing one look the same: no hint that the id exists.
      if (!before) throw notFound();
      await repo.updateSubAccount(tx, merchantId, userId, {
        ...(req.name !== undefined && { name: req.name }),
        ...(menus !== undefined && { menus }),
        ...(passwordHash !== undefined && { passwordHash }),
        ...(req.disabled !== undefined && { disabled: req.disabled }),
        now,
      });
      // A new password or a disabled account ends the sub-account's sessions.
      if (passwordHash !== undefined || req.disabled === true) await revokeUserSessions(tx, userId, now);
      const after = await repo.findSubAccount(tx, merchantId, userId);
      if (!after) throw notFound();
      await audit(tx, {
        actorUserId: actor.userId,
        action: "subAccount.update",
        subjectType: "user",
        subjectId: userId,
        detail: {
          before: { menus: before.menus, disabled: before.disabled_at !== null },
          after: { menus: after.menus, disabled: after.disabled_at !== null },
          passwordChanged: passwordHash !== undefined,
        },
      });
      return present(after);
    });
  }

  /** The pages the signed-in user may open (the web app hides the others). */
  myMenus(actor: Actor): MyMenusReply {
    return { menus: actor.menus === null ? null : [...actor.menus] };
  }

  /** Re-checks a signed-in user's password (viewing or resetting an API secret). */
  async checkPassword(actor: Actor, password: string): Promise<boolean> {
    const row = await repo.passwordHashOf(this.deps.db, actor.userId);
    return row ? this.deps.hasher.verify(row.password_hash, password) : false;
  }
}
