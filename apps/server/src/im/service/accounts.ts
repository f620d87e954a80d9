import { randomUUID } from "node:crypto";
import { IM_PASSWORD_MAX, IM_USER_INFO_KEYS, IM_USERNAME_RE, type ImUserInfoKey } from "@tessera/contracts";
import type { Tx } from "../../db/tx";
import type { TokenSigner } from "../auth";
import { isUniqueViolation } from "../../db/tx";
import { denied, imError, invalidParam } from "../errors";
import * as users from "../store/users";
import { inScope, type ImActor, type ImDeps } from "./core";

/** The user entity of replies (register, token, user updates). */
export function presentUser(u: users.ImUserRow): Record<string, unknown> {
  return {
    uuid: u.uuid,
    type: "user",
    created: u.created_at.getTime(),
    modified: u.modified_at.getTime(),
    username: u.username,
    activated: u.activated,
    nickname: u.nickname,
  };
}

/** Usernames are case-insensitive: stored and compared lower-case. */
export function normalizeUsername(raw: unknown, field = "username"): string {
  if (typeof raw !== "string" || !IM_USERNAME_RE.test(raw)) throw invalidParam(field);
  return raw.toLowerCase();
}

export interface IssuedToken {
  accessToken: string;
  /** Seconds. */
  expiresIn: number;
  /** Absolute, ms. */
  expireTimestamp: number;
}

/**
 * Creates the IM user if it does not exist yet (the back-office's users and brands). Idempotent; runs in
 * the caller's transaction. A nickname is also its user-info nickname, which chat counterparts read.
 */
export async function ensureImUser(tx: Tx, username: string, options: { nickname?: string; now: Date }): Promise<void> {
  const name = normalizeUsername(username);
  const nickname = options.nickname ?? "";
  await users.insertUser(tx, {
    username: name,
    uuid: randomUUID(),
    passwordHash: null,
    nickname,
    ...(nickname !== "" && { profile: { nickname } }),
    now: options.now,
  });
}

/** Signs a token for `subject` (a username, or "" for the app) valid for `ttlSeconds` from `nowMs`. */
export function signImToken(signer: TokenSigner, subject: string, nowMs: number, ttlSeconds: number): IssuedToken {
  const expireTimestamp = nowMs + ttlSeconds * 1000;
  return {
    accessToken: signer.sign({ subject, issuedMs: nowMs, expiresMs: expireTimestamp }),
    expiresIn: ttlSeconds,
    expireTimestamp,
  };
}

export class ImAccounts {
  constructor(private readonly deps: ImDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /** A token for `username`, valid for the configured TTL (or `ttlSeconds` when shorter). */
  issueToken(username: string, ttlSeconds?: number): IssuedToken {
    const ttl = Math.min(ttlSeconds ?? this.deps.config.tokenTtlSeconds, this.deps.config.tokenTtlSeconds);
    return signImToken(this.deps.signer, username, this.now().getTime(), ttl);
  }

  /** The caller behind a bearer token, or null when it is malformed, expired, revoked or its user is gone. */
  async authenticate(token: string): Promise<{ actor: ImActor; expiresMs: number } | null> {
    const claims = this.deps.signer.verify(token);
    const now = this.now().getTime();
    if (!claims || claims.expiresMs <= now) return null;
    if (claims.subject === "") return { actor: { kind: "app" }, expiresMs: claims.expiresMs };
    const user = await users.findUser(this.deps.db, claims.subject);
    if (!user || !user.activated || claims.issuedMs < user.token_epoch_ms) return null;
    return { actor: { kind: "user", username: user.username }, expiresMs: claims.expiresMs };
  }

  async register(
    actor: ImActor | null,
    body: { username?: unknown; password?: unknown; nickname?: unknown },
  ): Promise<users.ImUserRow> {
    if (!this.deps.config.openRegistration && actor?.kind !== "app") throw imError("openRegistrationClosed");
    if (typeof body.username !== "string" || !IM_USERNAME_RE.test(body.username)) {
      throw imError("usernameIllegal", { username: typeof body.username === "string" ? body.username : "" });
    }
    if (typeof body.password !== "string" || body.password.length === 0 || body.password.length > IM_PASSWORD_MAX) {
      throw imError("passwordIllegal");
    }
    const nickname = typeof body.nickname === "string" ? body.nickname.slice(0, 100) : "";
    const username = body.username.toLowerCase();
    const passwordHash = await this.deps.hasher.hash(body.password);
    try {
      return await inScope(this.deps, async (s) => {
        const created = await users.insertUser(s.tx, {
          username,
          uuid: randomUUID(),
          passwordHash,
          nickname,
          now: s.now,
        });
        if (!created) throw imError("usernameTaken", { username });
        const row = await users.findUser(s.tx, username);
        if (!row) throw new Error("user vanished after insert");
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw imError("usernameTaken", { username });
      throw err;
    }
  }

  /** The password grant: checks the password; unknown users and wrong passwords are told apart, as the protocol does. */
  async passwordGrant(
    username: unknown,
    password: unknown,
    ttl: number | undefined,
  ): Promise<{ token: IssuedToken; user: users.ImUserRow }> {
    if (typeof username !== "string" || !IM_USERNAME_RE.test(username)) throw imError("loginUserNotFound");
    if (typeof password !== "string" || password.length === 0) throw imError("invalidPassword");
    const user = await users.findUser(this.deps.db, username.toLowerCase());
    if (!user) {
      await this.deps.hasher.verifyDummy(password);
      throw imError("loginUserNotFound");
    }
    if (!user.password_hash || !(await this.deps.hasher.verify(user.password_hash, password))) {
      throw imError("invalidPassword");
    }
    if (!user.activated) throw imError("userDeactivated");
    return { token: this.issueToken(user.username, ttl), user };
  }

  clientCredentialsGrant(clientId: unknown, clientSecret: unknown, ttl: number | undefined): IssuedToken {
    const ok =
      typeof clientId === "string" &&
      typeof clientSecret === "string" &&
      clientId === this.deps.clientId &&
      clientSecret === this.deps.clientSecret;
    if (!ok) throw imError("invalidClient");
    return this.issueToken("", ttl);
  }

  async getUser(username: string): Promise<users.ImUserRow> {
    const user = await users.findUser(this.deps.db, username);
    if (!user) throw imError("userNotFound", { username });
    return user;
  }

  /** PUT users/{user}: nickname, push token, or the legacy group-message block (`notification_ignore_<id>`). */
  async updateUser(
    username: string,
    patch: { nickname?: string; push?: { deviceId: string; deviceToken: string; notifierName: string } },
  ): Promise<users.ImUserRow> {
    return inScope(this.deps, async (s) => {
      const row = await users.updateUser(
        s.tx,
        username,
        {
          ...(patch.nickname !== undefined && { nickname: patch.nickname }),
          ...(patch.push && {
            device_id: patch.push.deviceId,
            device_token: patch.push.deviceToken === "" ? null : patch.push.deviceToken,
            notifier_name: patch.push.notifierName,
          }),
        },
        s.now,
      );
      if (!row) throw imError("userNotFound", { username });
      return row;
    });
  }

  /**
   * Sets a new password (the app, or the user itself with its current password). Every token issued
   * before now stops working and every connected device is logged out with "password changed".
   */
  async changePassword(actor: ImActor, username: string, newPassword: unknown, oldPassword: unknown): Promise<void> {
    if (typeof newPassword !== "string" || newPassword.length === 0 || newPassword.length > IM_PASSWORD_MAX) {
      throw imError("passwordIllegal");
    }
    const user = await this.getUser(username);
    if (actor.kind === "user") {
      if (
        typeof oldPassword !== "string" ||
        !user.password_hash ||
        !(await this.deps.hasher.verify(user.password_hash, oldPassword))
      ) {
        throw imError("invalidPassword");
      }
    }
    const passwordHash = await this.deps.hasher.hash(newPassword);
    await this.endSessions(username, "passwordChanged", { password_hash: passwordHash });
  }

  /** Deactivates (bans) or reactivates a user; deactivation logs every device out. */
  async setActivated(username: string, activated: boolean): Promise<users.ImUserRow> {
    if (activated) {
      return inScope(this.deps, async (s) => {
        const row = await users.updateUser(s.tx, username, { activated: true }, s.now);
        if (!row) throw imError("userNotFound", { username });
        return row;
      });
    }
    return this.endSessions(username, "removed", { activated: false });
  }

  /** Logs every device of the user out now; its tokens stay valid (it may log in again). */
  async disconnect(username: string): Promise<void> {
    await inScope(this.deps, async (s) => {
      if (!(await users.findUser(s.tx, username))) throw imError("userNotFound", { username });
      await s.notify([username], { ns: "session", op: "disconnected", from: username }, { durable: false });
    });
  }

  /** Deletes the user (the caller dissolved the groups and rooms it owned first); its devices are logged out. */
  async remove(username: string): Promise<users.ImUserRow> {
    return inScope(this.deps, async (s) => {
      const user = await users.findUser(s.tx, username);
      if (!user) throw imError("userNotFound", { username });
      await users.deleteUser(s.tx, username);
      await s.notify([username], { ns: "session", op: "removed", from: username }, { durable: false });
      return user;
    });
  }

  /** Updates the user, revokes its tokens issued until now and kicks its devices once that committed. */
  private async endSessions(
    username: string,
    op: "passwordChanged" | "removed",
    patch: { password_hash?: string; activated?: boolean },
  ): Promise<users.ImUserRow> {
    return inScope(this.deps, async (s) => {
      // Tokens are stamped in milliseconds: one issued in this very millisecond is revoked too.
      const row = await users.updateUser(s.tx, username, { ...patch, token_epoch_ms: s.now.getTime() + 1 }, s.now);
      if (!row) throw imError("userNotFound", { username });
      await s.notify([username], { ns: "session", op, from: username }, { durable: false });
      return row;
    });
  }

  /** Sets the user-info keys given (spec 02 §5); other keys are refused. Returns the stored map. */
  async setUserInfo(username: string, fields: Record<string, string>): Promise<Record<string, string>> {
    for (const key of Object.keys(fields)) {
      if (!(IM_USER_INFO_KEYS as readonly string[]).includes(key)) throw invalidParam(`illegal key ${key}`);
    }
    return inScope(this.deps, async (s) => {
      const user = await users.findUser(s.tx, username);
      if (!user) throw imError("userNotFound", { username });
      const profile = { ...user.profile, ...fields };
      await users.updateUser(
        s.tx,
        username,
        { profile, ...(fields.nickname !== undefined && { nickname: fields.nickname }) },
        s.now,
      );
      return profile;
    });
  }

  async getUserInfo(
    targets: readonly string[],
    properties: readonly string[],
  ): Promise<Record<string, Record<string, string>>> {
    const keys =
      properties.length > 0
        ? properties.filter((p): p is ImUserInfoKey => (IM_USER_INFO_KEYS as readonly string[]).includes(p))
        : [...IM_USER_INFO_KEYS];
    const profiles = await users.profilesOf(this.deps.db, targets);
    const out: Record<string, Record<string, string>> = {};
    for (const target of targets) {
      const profile = profiles.get(target);
      if (!profile) continue;
      const picked: Record<string, string> = {};
      for (const k of keys) if (profile[k] !== undefined) picked[k] = profile[k];
      out[target] = picked;
    }
    return out;
  }

  /** The user a path names: the caller itself, or anyone for the app. */
  static self(actor: ImActor, pathUser: string): string {
    const name = pathUser.toLowerCase();
    if (actor.kind === "app") return name;
    if (actor.username !== name) throw denied(`a user may act only as itself, not as ${pathUser}`);
    return name;
  }
}
