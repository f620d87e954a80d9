import { createHash } from "node:crypto";
import { maskPhone } from "../../platform/present";
import {
  AGREEMENT_KINDS,
  AGREEMENT_TEMPLATES,
  CODE,
  type AgreementTemplateReply,
  type Lang,
  type SignAgreementReq,
  type SignedAgreement,
} from "@tessera/contracts";
import { isUniqueViolation, withTx, type Db, type Tx } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { AppError, conflict, forbidden, notFound } from "../../platform/http/errors";
import * as repo from "./agreements.repo";

export interface AgreementsDeps {
  db: Db;
  clock: Clock;
  /** Accounts: checks the SMS code of scene signAgreement (returns its id) and consumes it in a transaction. */
  checkSmsCode: (phone: string, code: string) => Promise<number>;
  consumeCode: (tx: Tx, codeId: number, now: Date) => Promise<boolean>;
}

function present(r: repo.SignatureRow): SignedAgreement {
  return {
    id: String(r.id),
    kind: r.kind,
    version: r.version,
    lang: r.lang,
    title: r.title,
    body: r.body,
    bodySha256: r.body_sha256,
    signerEmail: r.signer_email,
    phone: maskPhone(r.phone),
    ip: r.ip,
    signedAt: r.signed_at.toISOString(),
  };
}

/**
 * Agreement signing (reserve-fund authorisation, e-signature agreement): consent ticked, a phone and
 * its SMS code; the main account signs for the company. What was signed is kept exactly, in the
 * signer's language, with its digest, so it can be shown later as it was.
 */
export class AgreementsService {
  constructor(private readonly deps: AgreementsDeps) {}

  /** Agreements bind the company: the main account signs them, never a sub-account (whatever its menus). */
  private ownerTenant(actor: Actor): number {
    const merchantId = tenantOf(actor);
    if (actor.menus !== null) throw forbidden();
    return merchantId;
  }

  async templates(actor: Actor, lang: Lang): Promise<AgreementTemplateReply[]> {
    const signed = await repo.signaturesOf(this.deps.db, tenantOf(actor));
    return AGREEMENT_KINDS.map((kind) => {
      const tpl = AGREEMENT_TEMPLATES[kind];
      const mine = signed.find((s) => s.kind === kind && s.version === tpl.version);
      return {
        kind,
        version: tpl.version,
        title: tpl.title[lang],
        body: tpl.body[lang],
        signed: mine ? { id: String(mine.id), signedAt: mine.signed_at.toISOString() } : null,
      };
    });
  }

  async sign(
    actor: Actor,
    req: SignAgreementReq,
    lang: Lang,
    client: { ip: string; userAgent: string | undefined },
  ): Promise<SignedAgreement> {
    const merchantId = this.ownerTenant(actor);
    const tpl = AGREEMENT_TEMPLATES[req.kind];
    if (req.version !== tpl.version) throw conflict("agreement.versionOutdated", "version");
    // Refused before the code is checked, so the code stays usable for something else.
    const existing = await repo.signaturesOf(this.deps.db, merchantId);
    if (existing.some((s) => s.kind === req.kind && s.version === tpl.version)) {
      throw conflict("agreement.alreadySigned");
    }
    const codeId = await this.deps.checkSmsCode(req.phone, req.smsCode);
    const now = this.deps.clock.now();
    const body = tpl.body[lang];
    try {
      const id = await withTx(this.deps.db, async (tx) => {
        if (!(await this.deps.consumeCode(tx, codeId, now))) throw new AppError(CODE.CODE_INVALID, "code.invalid");
        const signatureId = await repo.insertSignature(tx, {
          merchantId,
          kind: req.kind,
          version: tpl.version,
          lang,
          title: tpl.title[lang],
          body,
          bodySha256: createHash("sha256").update(body).digest("hex"),
          signedBy: actor.userId,
          signerEmail: actor.email,
          phone: req.phone,
          ip: client.ip,
          userAgent: client.userAgent?.slice(0, 300) ?? null,
          now,
        });
        await audit(tx, {
          actorUserId: actor.userId,
          action: "agreement.sign",
          subjectType: "agreementSignature",
          subjectId: signatureId,
          detail: { kind: req.kind, version: tpl.version },
        });
        return signatureId;
      });
      return this.get(actor, id);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict("agreement.alreadySigned");
      throw err;
    }
  }

  async list(actor: Actor): Promise<SignedAgreement[]> {
    return (await repo.signaturesOf(this.deps.db, tenantOf(actor))).map(present);
  }

  async get(actor: Actor, id: number): Promise<SignedAgreement> {
    const row = await repo.findSignature(this.deps.db, tenantOf(actor), id);
    if (!row) throw notFound();
    return present(row);
  }
}
