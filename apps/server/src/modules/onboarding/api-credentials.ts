import {
  CODE,
  parseIpList,
  type ApiApplyReq,
  type ApiInfoReply,
  type ApiIpReq,
  type ApiSecretReply,
  type ApiViewReq,
  type Page,
  type QueueItem,
  type QueueItemsQuery,
} from "@tessera/contracts";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { sql, type RawBuilder } from "kysely";
import { isUniqueViolation, withTx, type Db, type Executor, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, invalid, notFound } from "../../platform/http/errors";
import { changeMerchant, getMerchant, lockMerchantForUpdate } from "../merchants";
import type { ReviewOutcome, ReviewQueue } from "../../platform/review-queue";
import { emptyApiInfo } from "./presenter";
import * as repo from "./api-credentials.repo";
import * as sharedRepo from "./repo";
import { open, seal } from "./secret-box";
import { pageWindow } from "../../db/paginate";

export interface ApiCredentialsDeps {
  db: Db;
  clock: Clock;
  secret: Buffer;
  /** Re-checks the signed-in user's password (accounts module). */
  checkPassword: (actor: Actor, password: string) => Promise<boolean>;
  /**
   * SMS codes of scene viewApiSecret sent to the user's own bound phone (accounts module): `check` gives
   * the code's id, `consume` uses it up in the view's transaction, so one code opens the secret once.
   * Services built only to read credentials (the open API's signature check) go without.
   */
  smsProof?: {
    check: (actor: Actor, code: string) => Promise<number>;
    consume: (tx: Executor, codeId: number, now: Date) => Promise<boolean>;
  };
}

const newAppKey = () => `tk${randomBytes(10).toString("hex")}`;
const newSecret = () => randomBytes(24).toString("base64url");

/**
 * API security (ApiSecurity / ApiSecurityB): a merchant asks for API permission, an operator opens it,
 * which issues an app key and secret. The secret is listed nowhere: it is shown in the reply of a reset
 * (once) or of a view after the password is re-entered or an SMS code to the user's bound phone is given. A reset replaces it, so the old one stops
 * working at once. Calls from outside must come from an allowlisted IP.
 */
export class ApiCredentialsService {
  constructor(private readonly deps: ApiCredentialsDeps) {}

  async info(actor: Actor): Promise<ApiInfoReply> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw notFound();
    const [request, cred] = await Promise.all([
      repo.latestApiRequest(this.deps.db, merchantId),
      repo.findCredentials(this.deps.db, merchantId),
    ]);
    const out = emptyApiInfo(merchant.api_permission);
    if (request) {
      out.request = {
        id: String(request.id),
        state: request.state,
        purpose: request.purpose,
        requestedAt: request.requested_at.toISOString(),
        rejectReason: request.reject_reason,
      };
    }
    if (cred && merchant.api_permission === "opened") {
      out.appKey = cred.app_key;
      out.hasSecret = true;
      out.secretIssuedAt = cred.secret_issued_at.toISOString();
      out.ipAllowlist = cred.ip_allowlist;
      out.callbackUrl = cred.callback_url;
    }
    return out;
  }

  async apply(actor: Actor, req: ApiApplyReq): Promise<ApiInfoReply> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw notFound();
    if (merchant.api_permission === "opened") throw conflict("api.alreadyOpened");
    if (merchant.real_name_state !== "verified") throw new AppError(CODE.FORBIDDEN, "api.realNameRequired");
    const now = this.deps.clock.now();
    try {
      await withTx(this.deps.db, async (tx) => {
        const id = await repo.insertApiRequest(tx, {
          merchantId,
          purpose: req.purpose,
          requestedBy: actor.userId,
          now,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "api.apply",
          subjectType: "apiPermissionRequest",
          subjectId: id,
        });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("api.requestPending");
      throw err;
    }
    return this.info(actor);
  }

  private async openedTenant(actor: Actor): Promise<number> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (merchant?.api_permission !== "opened") throw new AppError(CODE.FORBIDDEN, "api.notOpened");
    return merchantId;
  }

  async setAccessRules(actor: Actor, req: ApiIpReq): Promise<ApiInfoReply> {
    const merchantId = await this.openedTenant(actor);
    const { ips, bad } = parseIpList(req.ips);
    if (bad !== null) throw invalid("api.ipInvalid", "ips", { ip: bad });
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const before = await repo.findCredentials(tx, merchantId);
      if (
        !before ||
        !(await repo.updateAccessRules(tx, merchantId, { ips, callbackUrl: req.callbackUrl || null, now }))
      ) {
        throw notFound();
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "api.accessRules",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: {
          before: { ips: before.ip_allowlist, callbackUrl: before.callback_url },
          after: { ips, callbackUrl: req.callbackUrl || null },
        },
      });
    });
    return this.info(actor);
  }

  private async confirmPassword(actor: Actor, password: string): Promise<void> {
    if (!(await this.deps.checkPassword(actor, password))) throw invalid("api.passwordWrong", "password");
  }

  async view(actor: Actor, proof: ApiViewReq): Promise<ApiSecretReply> {
    const merchantId = await this.openedTenant(actor);
    const sms = this.deps.smsProof;
    let codeId: number | null = null;
    if (proof.smsCode !== undefined) {
      if (!sms) throw invalid("code.invalid", "smsCode");
      codeId = await sms.check(actor, proof.smsCode);
    } else await this.confirmPassword(actor, proof.password ?? "");
    const cred = await repo.findCredentials(this.deps.db, merchantId);
    if (!cred) throw notFound();
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      if (codeId !== null && !(await sms?.consume(tx, codeId, now))) throw invalid("code.invalid", "smsCode");
      await audit(tx, {
        actorUserId: actor.userId,
        action: "api.viewSecret",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: { by: codeId !== null ? "sms" : "password" },
      });
    });
    return {
      appKey: cred.app_key,
      secret: open(this.deps.secret, cred.secret_ciphertext),
      issuedAt: cred.secret_issued_at.toISOString(),
    };
  }

  async reset(actor: Actor, password: string): Promise<ApiSecretReply> {
    const merchantId = await this.openedTenant(actor);
    await this.confirmPassword(actor, password);
    const secret = newSecret();
    const now = this.deps.clock.now();
    const appKey = await withTx(this.deps.db, async (tx) => {
      const cred = await repo.findCredentials(tx, merchantId);
      const key = cred?.app_key ?? newAppKey();
      await repo.upsertSecret(tx, merchantId, { appKey: key, secretCiphertext: seal(this.deps.secret, secret), now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "api.resetSecret",
        subjectType: "merchant",
        subjectId: merchantId,
      });
      return key;
    });
    return { appKey, secret, issuedAt: now.toISOString() };
  }

  /**
   * Checks an API client's app key, secret and source address: the merchant it acts for, or null. For
   * the open API (card-api); a reset secret or an address outside a non-empty allowlist is refused.
   */
  async authenticateClient(appKey: string, secret: string, ip: string): Promise<number | null> {
    const row = await repo.findCredentialsByAppKey(this.deps.db, appKey);
    if (!row) return null;
    const merchant = await getMerchant(this.deps.db, row.merchant_id);
    if (merchant?.api_permission !== "opened") return null;
    const a = Buffer.from(open(this.deps.secret, row.secret_ciphertext));
    const b = Buffer.from(secret);
    if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
    if (row.ip_allowlist.length > 0 && !row.ip_allowlist.includes(ip)) return null;
    return row.merchant_id;
  }

  /**
   * What the open API needs to check a signed request: the merchant, its secret (to recompute the
   * HMAC), whether its API permission is open, and the IP allowlist. Undefined for an unknown key.
   */
  async signingClient(appKey: string): Promise<
    | {
        merchantId: number;
        secret: string;
        opened: boolean;
        ipAllowlist: readonly string[];
        callbackUrl: string | null;
      }
    | undefined
  > {
    const row = await repo.findCredentialsByAppKey(this.deps.db, appKey);
    if (!row) return undefined;
    const merchant = await getMerchant(this.deps.db, row.merchant_id);
    return {
      merchantId: row.merchant_id,
      secret: open(this.deps.secret, row.secret_ciphertext),
      opened: merchant?.api_permission === "opened",
      ipAllowlist: row.ip_allowlist,
      callbackUrl: row.callback_url,
    };
  }

  /**
   * Where a merchant's order results go and the secret that signs them, read in the caller's
   * transaction (the order's). Undefined without API credentials or a callback URL.
   */
  async callbackTarget(db: Executor, merchantId: number): Promise<{ url: string; secret: string } | undefined> {
    const row = await repo.findCredentials(db, merchantId);
    if (!row?.callback_url) return undefined;
    return { url: row.callback_url, secret: open(this.deps.secret, row.secret_ciphertext) };
  }

  /**
   * callbackTarget's URL as an SQL expression (null without API credentials or a callback URL), for a
   * statement that writes an order's result callback together with the order.
   */
  callbackUrlSql(merchantId: number): RawBuilder<string | null> {
    return sql<
      string | null
    >`(SELECT c.callback_url FROM api_credentials c WHERE c.merchant_id = ${merchantId}::bigint)`;
  }

  /** The operator console's API permission queue: approving opens the permission and issues a key. */
  queue(): ReviewQueue {
    const decide = async (
      tx: Tx,
      id: number,
      operator: Actor,
      now: Date,
      reason: string | null,
    ): Promise<ReviewOutcome> => {
      const request = await repo.lockApiRequest(tx, id);
      if (!request) throw notFound();
      const merchant = await lockMerchantForUpdate(tx, request.merchant_id);
      if (!merchant) throw notFound();
      const state = reason === null ? "approved" : "rejected";
      if (!(await repo.decideApiRequest(tx, id, { state, reviewedBy: operator.userId, reason, now }))) {
        throw new AppError(CODE.CONFLICT, "review.notPending");
      }
      if (state === "approved") {
        await changeMerchant(tx, request.merchant_id, { apiPermission: "opened", now });
        const cred = await repo.findCredentials(tx, request.merchant_id);
        if (!cred) {
          await repo.upsertSecret(tx, request.merchant_id, {
            appKey: newAppKey(),
            secretCiphertext: seal(this.deps.secret, newSecret()),
            now,
          });
        }
      }
      return {
        subjectType: "apiPermissionRequest",
        subjectId: String(id),
        before: { request: request.state, apiPermission: merchant.api_permission },
        after: {
          request: state,
          apiPermission: state === "approved" ? "opened" : merchant.api_permission,
          ...(reason !== null && { reason }),
        },
      };
    };
    return {
      kind: "apiPermission",
      countPending: (db) => sharedRepo.countPending(db, "api_permission_requests"),
      list: async (db, q: QueueItemsQuery): Promise<Page<QueueItem>> => {
        const { total, rows } = await repo.searchApiRequests(db, {
          ...(q.state && { state: q.state }),
          ...(q.merchantId && { merchantId: Number(q.merchantId) }),
          ...pageWindow(q),
        });
        const list = rows.map((r): QueueItem => ({
          id: String(r.id),
          kind: "apiPermission",
          merchantId: String(r.merchant_id),
          merchantName: r.merchant_name,
          state: r.state,
          submittedAt: r.requested_at.toISOString(),
          reviewedAt: r.reviewed_at?.toISOString() ?? null,
          reviewedBy: r.reviewed_by === null ? null : String(r.reviewed_by),
          rejectReason: r.reject_reason,
          fields: { purpose: r.purpose, realNameState: r.real_name_state },
          documents: [],
        }));
        return { list, total, page: q.page, pageSize: q.pageSize };
      },
      approve: (tx, id, operator, now) => decide(tx, id, operator, now, null),
      reject: (tx, id, operator, reason, now) => decide(tx, id, operator, now, reason),
    };
  }
}
