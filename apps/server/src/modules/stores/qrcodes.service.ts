import { randomBytes } from "node:crypto";
import { CODE, type Page, type QrCode, type QrKind, type QrLanding } from "@tessera/contracts";
import { isUniqueViolation } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { AppError } from "../../platform/http/errors";
import { getMerchant } from "../merchants";
import { presentQrCode } from "./presenter";
import * as repo from "./qrcodes.repo";
import { regionText } from "../../platform/regions";
import { findStore } from "./repo";
import type { StoresDeps } from "./service";
import { pageWindow } from "../../db/paginate";

const storeNotFound = () => new AppError(CODE.NOT_FOUND, "stores.notFound");

/** The brand's QR codes: a shop code per store, mall codes (optionally attributed to a store), and what a scan opens. */
export class QrCodesService {
  constructor(private readonly deps: StoresDeps) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  async list(
    actor: Actor,
    q: { page: number; pageSize: number; kind?: QrKind | undefined; storeId?: string | undefined },
    origin: string,
  ): Promise<Page<QrCode>> {
    const brander = tenantOf(actor);
    const { rows, total } = await repo.qrCodePage(this.deps.db, brander, {
      kind: q.kind,
      storeId: q.storeId,
      ...pageWindow(q),
    });
    return {
      list: rows.slice(0, q.pageSize).map((r) => presentQrCode(r, origin)),
      total,
      page: q.page,
      pageSize: q.pageSize,
    };
  }

  async get(actor: Actor, id: number, origin: string): Promise<QrCode> {
    const r = await repo.qrCodeOf(this.deps.db, tenantOf(actor), id);
    if (!r) throw new AppError(CODE.NOT_FOUND, "stores.codeNotFound");
    return presentQrCode(r, origin);
  }

  /** `qrCodes/bind`: the store's shop code (made once; binding again returns it). */
  async bindShopCode(actor: Actor, storeId: number, origin: string): Promise<QrCode> {
    const brander = tenantOf(actor);
    const s = await findStore(this.deps.db, brander, storeId);
    if (!s) throw storeNotFound();
    const existing = await repo.findShopCode(this.deps.db, brander, storeId);
    if (existing) return presentQrCode(existing, origin);
    try {
      await repo.insertShopCode(this.deps.db, {
        brander_id: brander,
        store_id: storeId,
        kind: "shop",
        token: randomBytes(12).toString("base64url"),
        name: s.name,
      });
    } catch (err) {
      // Bound at the same moment by another request: its code is the store's.
      if (!isUniqueViolation(err)) throw err;
    }
    const r = await repo.getShopCode(this.deps.db, brander, storeId);
    return presentQrCode(r, origin);
  }

  /** `POST mallCodes`: a code opening the brand's mall, optionally attributed to a store. */
  async createMallCode(actor: Actor, req: { name: string; storeId: string | null }, origin: string): Promise<QrCode> {
    const brander = tenantOf(actor);
    if (req.storeId !== null && !(await findStore(this.deps.db, brander, Number(req.storeId)))) {
      throw storeNotFound();
    }
    const id = await repo.insertQrCode(this.deps.db, {
      brander_id: brander,
      store_id: req.storeId === null ? null : Number(req.storeId),
      kind: "mall",
      token: randomBytes(12).toString("base64url"),
      name: req.name,
    });
    return this.get(actor, id, origin);
  }

  async deleteMallCode(actor: Actor, id: number): Promise<{ deleted: true }> {
    if (!(await repo.retireMallCode(this.deps.db, tenantOf(actor), id, this.now()))) {
      throw new AppError(CODE.NOT_FOUND, "stores.codeNotFound");
    }
    return { deleted: true };
  }

  /** What a scanned code opens (public): the store, or the brand's mall (its released storefront's app id, if any). */
  async landing(token: string): Promise<QrLanding> {
    const r = await repo.landingOf(this.deps.db, token);
    if (!r) throw new AppError(CODE.NOT_FOUND, "stores.codeNotFound");
    const brand = await getMerchant(this.deps.db, r.brander_id);
    return {
      mallAppId: r.kind === "mall" ? await this.deps.releasedMall(r.brander_id) : null,
      kind: r.kind,
      name: r.name,
      branderId: String(r.brander_id),
      branderName: brand?.name ?? "",
      store:
        r.store_name !== null
          ? {
              name: r.store_name,
              region: regionText(r.province_code ?? "", r.city_code ?? "", r.county_code ?? ""),
              address: r.address ?? "",
              openingHours: r.opening_hours ?? "",
              contactPhone: r.contact_phone ?? "",
              state: r.state ?? "open",
            }
          : null,
    };
  }
}
