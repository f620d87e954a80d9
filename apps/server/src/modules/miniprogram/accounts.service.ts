import {
  CODE,
  type MpAccount,
  type MpAccountKind,
  type MpLifeBrand,
  type MpOfficialReply,
  type MpPlatform,
} from "@tessera/contracts";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import type { Clock } from "../../platform/clock";
import { AppError, conflict } from "../../platform/http/errors";
import {
  ERR,
  PlatformError,
  type AuthorizerTokens,
  type MenuButton,
  type PlatformAdapter,
  type PlatformPush,
} from "../../platform/adapters/miniprogram";
import { OFFICIAL_TEMPLATES, type LocalPlatform } from "../../platform/adapters/miniprogram";
import * as accounts from "./accounts.repo";
import { platformRefusal } from "./service";
import { iso } from "../../platform/present";

/** Refresh an account's token this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;
const PLATFORM_OF: Record<MpAccountKind, MpPlatform> = { official: "wechat", life: "douyin" };
const notBound = () => new AppError(CODE.NOT_FOUND, "mp.accountNotFound");

export interface BoundAccountsDeps {
  db: Db;
  clock: Clock;
  adapters: Record<MpPlatform, PlatformAdapter>;
  /** The local platforms, when they run: what they answered for an account is shown. */
  sims: Record<MpPlatform, LocalPlatform> | null;
  /** The brands a service provider serves (active bindings), with their names. */
  servedBrands(providerId: number): Promise<{ id: number; name: string }[]>;
}

type Row = {
  id: number;
  kind: MpAccountKind;
  platform: MpPlatform;
  merchant_id: number;
  brand_id: number;
  app_id: string;
  nick_name: string;
  scopes: string[];
  access_token: string;
  access_expires_at: Date | string;
  refresh_token: string;
  state: MpAccount["state"];
  menu: MenuButton[] | null;
  authorized_at: Date | string;
  updated_at: Date | string;
};

function present(r: Row): MpAccount {
  return {
    id: String(r.id),
    kind: r.kind,
    platform: r.platform,
    appId: r.app_id,
    name: r.nick_name,
    brandId: r.kind === "life" ? String(r.brand_id) : null,
    scopes: r.scopes,
    state: r.state,
    menu: r.menu ? r.menu.map((b) => ({ name: b.name, url: b.url })) : null,
    authorizedAt: iso(r.authorized_at),
    updatedAt: iso(r.updated_at),
  };
}

/**
 * Accounts bound through the platform's authorisation flow, beside the mini-programs: a merchant's
 * official account (公众号, WeChat; auth_type 1) and a service provider's local-life authorisation
 * (Douyin local services) for each brand it serves. The same consent as a mini-program's (pre-auth code,
 * the platform's consent page, auth code back, tokens), the account type checked; tokens refreshed
 * before they expire; the platform's `unauthorized` push ends a binding.
 */
export class BoundAccounts {
  constructor(private readonly deps: BoundAccountsDeps) {}
  private now(): Date {
    return this.deps.clock.now();
  }

  private async live(merchantId: number, kind: MpAccountKind, brandId: number): Promise<Row | undefined> {
    return accounts.liveAccount(this.deps.db, merchantId, kind, brandId);
  }
  /** The binding shown: the live one, else the latest one (revoked on the platform or unbound). */
  private async latest(merchantId: number, kind: MpAccountKind, brandId: number): Promise<Row | undefined> {
    return accounts.latestAccount(this.deps.db, merchantId, kind, brandId);
  }

  private async brandOf(actor: Actor, kind: MpAccountKind, brandId: number | undefined): Promise<number> {
    if (kind === "official") return 0;
    if (brandId === undefined || !(await this.deps.servedBrands(tenantOf(actor))).some((b) => b.id === brandId)) {
      throw conflict("mp.brandNotServed", "brandId");
    }
    return brandId;
  }

  async authUrl(
    actor: Actor,
    kind: MpAccountKind,
    q: { redirect: string; brandId?: number | undefined },
    origin: string,
  ): Promise<{ url: string; expiresIn: number }> {
    const brandId = await this.brandOf(actor, kind, q.brandId);
    const back = `${origin}${q.redirect}?bind=${kind}${kind === "life" ? `&brandId=${brandId}` : ""}`;
    try {
      return await this.deps.adapters[PLATFORM_OF[kind]].authUrl(back, origin, kind, tenantOf(actor));
    } catch (err) {
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
  }

  /** The consent page came back with an auth code: the account's tokens, bound to the merchant (and brand). */
  async callback(
    actor: Actor,
    kind: MpAccountKind,
    req: { authCode: string; brandId?: number | undefined },
  ): Promise<MpAccount> {
    const merchantId = tenantOf(actor);
    const brandId = await this.brandOf(actor, kind, req.brandId);
    const platform = PLATFORM_OF[kind];
    let tokens: AuthorizerTokens;
    try {
      tokens = await this.deps.adapters[platform].queryAuth(req.authCode, kind);
    } catch (err) {
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
    if (tokens.accountType !== undefined && tokens.accountType !== kind) throw conflict("mp.accountTypeWrong");
    const now = this.now();
    const id = await withTx(this.deps.db, async (tx) => {
      const taken = await accounts.lockLiveByApp(tx, tokens.appId);
      if (taken && (taken.merchant_id !== merchantId || taken.brand_id !== brandId || taken.kind !== kind)) {
        throw conflict("mp.accountTaken");
      }
      const values = {
        nick_name: tokens.nickName ?? tokens.appId,
        scopes: JSON.stringify(tokens.scopes),
        access_token: tokens.accessToken,
        access_expires_at: new Date(now.getTime() + tokens.expiresIn * 1000),
        refresh_token: tokens.refreshToken,
        authorized_at: now,
        updated_at: now,
      };
      let rowId: number;
      if (taken) {
        await accounts.updateAccount(tx, taken.id, values);
        rowId = taken.id;
      } else {
        // Another account bound before: this one replaces it.
        await accounts.replaceLive(tx, merchantId, kind, brandId, now);
        rowId = await accounts.insertAccount(tx, merchantId, { kind, platform, brandId, appId: tokens.appId }, values);
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: `miniprogram.${kind}.bind`,
        subjectType: "mp_account",
        subjectId: rowId,
        detail: { appId: tokens.appId, brandId },
      });
      return rowId;
    });
    const row = await accounts.accountById(this.deps.db, id);
    return present(row);
  }

  /** Ends the merchant's binding (the account keeps its authorisation on the platform until it cancels it there). */
  async unbind(actor: Actor, kind: MpAccountKind, brandId?: number): Promise<{ unbound: true }> {
    const merchantId = tenantOf(actor);
    const b = await this.brandOf(actor, kind, brandId);
    await withTx(this.deps.db, async (tx) => {
      const r = await accounts.unbindLive(tx, merchantId, kind, b, this.now());
      if (!r) throw notBound();
      await audit(tx, {
        actorUserId: actor.userId,
        action: `miniprogram.${kind}.unbind`,
        subjectType: "mp_account",
        subjectId: r.id,
        detail: { brandId: b },
      });
    });
    return { unbound: true };
  }

  /** A live access token of the account: refreshed near its end; a revoked account is marked so. */
  private async token(row: Row): Promise<string> {
    const now = this.now();
    if (new Date(row.access_expires_at).getTime() - REFRESH_MARGIN_MS > now.getTime()) return row.access_token;
    try {
      const t = await this.deps.adapters[row.platform].refreshToken(row.app_id, row.refresh_token, row.kind);
      await accounts.updateAccount(this.deps.db, row.id, {
        access_token: t.accessToken,
        access_expires_at: new Date(now.getTime() + t.expiresIn * 1000),
        refresh_token: t.refreshToken,
        updated_at: now,
      });
      return t.accessToken;
    } catch (err) {
      if (err instanceof PlatformError && err.errcode === ERR.NOT_AUTHORIZED) {
        await this.onPush({ event: "unauthorized", appId: row.app_id });
        throw conflict("mp.officialNotBound");
      }
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
  }

  /** The merchant's released malls, as links an official account's menu opens. */
  private async mallLinks(merchantId: number, origin: string): Promise<{ name: string; url: string }[]> {
    const rows = await accounts.publishedMalls(this.deps.db, merchantId);
    return rows.flatMap((r) =>
      r.app_id ? [{ name: r.name, url: `${origin}/mall/${encodeURIComponent(r.app_id)}` }] : [],
    );
  }

  /** WechatOfficial / DockWechat: the bound official account, what it enables and what the platform answered. */
  async official(actor: Actor, origin: string): Promise<MpOfficialReply> {
    const merchantId = tenantOf(actor);
    const row = await this.latest(merchantId, "official", 0);
    const sim = this.deps.sims?.wechat;
    const calls = row && sim ? await sim.calls(row.app_id) : [];
    return {
      account: row ? present(row) : null,
      mallLinks: await this.mallLinks(merchantId, origin),
      templates:
        row?.state === "authorized" && sim ? OFFICIAL_TEMPLATES.map((t) => ({ id: t.id, title: t.title })) : [],
      calls: calls.map((c) => ({ operation: c.operation, payload: c.payload, at: c.at.toISOString() })),
    };
  }

  private async officialApi(merchantId: number) {
    const row = await this.live(merchantId, "official", 0);
    if (!row) throw conflict("mp.officialNotBound");
    const api = this.deps.adapters.wechat.official;
    if (!api) throw platformRefusal(new PlatformError(ERR.API_UNAUTHORIZED, "api unauthorized"));
    return { row, api, token: await this.token(row) };
  }

  /** Sets the official account's menu to the merchant's released malls (`cgi-bin/menu/create`). */
  async setMenu(actor: Actor, origin: string): Promise<MpAccount> {
    const merchantId = tenantOf(actor);
    const links = await this.mallLinks(merchantId, origin);
    if (links.length === 0) throw conflict("mp.officialNoMall");
    const { row, api, token } = await this.officialApi(merchantId);
    const buttons = links.map((l) => ({ name: truncateBytes(l.name, 16), url: l.url }));
    try {
      await api.createMenu(token, buttons);
    } catch (err) {
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
    await withTx(this.deps.db, async (tx) => {
      await accounts.updateAccount(tx, row.id, { menu: JSON.stringify(buttons), updated_at: this.now() });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "miniprogram.official.menu",
        subjectType: "mp_account",
        subjectId: row.id,
        detail: { buttons: buttons.length },
      });
    });
    return present(await accounts.accountById(this.deps.db, row.id));
  }

  /** Sends a template message from the official account to a follower (`cgi-bin/message/template/send`). */
  async sendTemplate(
    actor: Actor,
    req: { openId: string; templateId: string },
    origin: string,
  ): Promise<{ msgId: string }> {
    const merchantId = tenantOf(actor);
    const { row, api, token } = await this.officialApi(merchantId);
    const [link] = await this.mallLinks(merchantId, origin);
    try {
      const r = await api.sendTemplate(token, {
        toUser: req.openId,
        templateId: req.templateId,
        url: link?.url ?? origin,
        data: { first: row.nick_name, remark: link?.name ?? "" },
      });
      await audit(this.deps.db, {
        actorUserId: actor.userId,
        action: "miniprogram.official.message",
        subjectType: "mp_account",
        subjectId: row.id,
        detail: { templateId: req.templateId },
      });
      return r;
    } catch (err) {
      if (err instanceof PlatformError) throw platformRefusal(err);
      throw err;
    }
  }

  /** LocaLivePlatform: the brands the provider serves, each with its local-life authorisation. */
  async lifeBrands(actor: Actor): Promise<{ list: MpLifeBrand[] }> {
    const providerId = tenantOf(actor);
    const brands = await this.deps.servedBrands(providerId);
    const list: MpLifeBrand[] = [];
    for (const b of brands) {
      const row = await this.latest(providerId, "life", b.id);
      list.push({ brandId: String(b.id), brandName: b.name, account: row ? present(row) : null });
    }
    return { list };
  }

  /** The platform's push: an account that cancelled its authorisation is no longer bound. */
  async onPush(push: PlatformPush): Promise<void> {
    if (push.event !== "unauthorized") return;
    await accounts.markAppUnauthorized(this.deps.db, push.appId, this.now());
  }
}

/** At most `max` UTF-8 bytes, whole characters only (a menu button's name). */
function truncateBytes(s: string, max: number): string {
  let out = "";
  for (const ch of s) {
    if (Buffer.byteLength(out + ch) > max) break;
    out += ch;
  }
  return out;
}
