import type { IndustryReq, ProfileReply, ProfileUpdateReq } from "@tessera/contracts";
import { randomUUID } from "node:crypto";
import { withTx, type Db } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { forbidden, notFound } from "../../platform/http/errors";
import { thumbnail } from "../../platform/images";
import type { FileStorage } from "../../platform/storage";
import { changeMerchant, getMerchant, lockMerchantForUpdate } from "../merchants";
import { presentProfile } from "./presenter";
import { checkImage } from "./realname";
import * as repo from "./profile.repo";

export interface ProfileDeps {
  db: Db;
  clock: Clock;
  storage: FileStorage;
}

/** Logos are kept as a 512 px WebP: enough for the header and the storefront, small to serve. */
const LOGO_BOX = 512;

/**
 * The company profile (BasicInformation, BasicInfo, EssentialInfo): company name, legal representative,
 * contact, address, industry and logo. The company name is the merchant's name; once verified it is
 * the name on the licence and changes only through a new verification.
 */
export class ProfileService {
  constructor(private readonly deps: ProfileDeps) {}

  async get(actor: Actor): Promise<ProfileReply> {
    const merchantId = tenantOf(actor);
    const merchant = await getMerchant(this.deps.db, merchantId);
    if (!merchant) throw notFound();
    return presentProfile(merchant, await repo.findProfile(this.deps.db, merchantId));
  }

  async update(actor: Actor, req: ProfileUpdateReq): Promise<ProfileReply> {
    const merchantId = tenantOf(actor);
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      const merchant = await lockMerchantForUpdate(tx, merchantId);
      if (!merchant) throw notFound();
      const before = await repo.findProfile(tx, merchantId);
      const renaming = req.companyName !== merchant.name;
      if (renaming && merchant.real_name_state === "verified") throw forbidden();
      if (renaming) await changeMerchant(tx, merchantId, { name: req.companyName, now });
      await repo.upsertProfile(tx, merchantId, {
        legalRepresentative: req.legalRepresentative || null,
        contactName: req.contactName || null,
        contactPhone: req.contactPhone || null,
        contactEmail: req.contactEmail.toLowerCase() || null,
        address: req.address || null,
        now,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "profile.update",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: {
          renamed: renaming,
          before: before ? { contactName: before.contact_name, address: before.address } : null,
        },
      });
    });
    return this.get(actor);
  }

  /** `PUT realNameAuths/{merchId}/industries`: the path's merchant must be the caller's own. */
  async setIndustry(actor: Actor, pathMerchantId: string, req: IndustryReq): Promise<ProfileReply> {
    const merchantId = tenantOf(actor);
    if (pathMerchantId !== String(merchantId)) throw forbidden();
    const now = this.deps.clock.now();
    await withTx(this.deps.db, async (tx) => {
      await repo.upsertProfile(tx, merchantId, { industry: req.industry, now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "profile.industry",
        subjectType: "merchant",
        subjectId: merchantId,
        detail: { industry: req.industry },
      });
    });
    return this.get(actor);
  }

  async uploadLogo(actor: Actor, data: Buffer): Promise<ProfileReply> {
    const merchantId = tenantOf(actor);
    await checkImage(data);
    const logo = await thumbnail(data, LOGO_BOX);
    const key = `logos/${merchantId}/${randomUUID()}.webp`;
    await this.deps.storage.put(key, logo.data);
    const now = this.deps.clock.now();
    const previous = await repo.findProfile(this.deps.db, merchantId);
    await withTx(this.deps.db, async (tx) => {
      await repo.upsertProfile(tx, merchantId, { logoKey: key, now });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "profile.logo",
        subjectType: "merchant",
        subjectId: merchantId,
      });
    });
    // The old file is no longer referenced once the new key is committed.
    if (previous?.logo_key) await this.deps.storage.delete(previous.logo_key);
    return this.get(actor);
  }

  async readLogo(actor: Actor): Promise<Buffer> {
    const profile = await repo.findProfile(this.deps.db, tenantOf(actor));
    const data = profile?.logo_key ? await this.deps.storage.get(profile.logo_key) : null;
    if (!data) throw notFound();
    return data;
  }
}
