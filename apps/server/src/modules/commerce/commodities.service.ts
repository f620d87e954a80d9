import type { Commodity, Page } from "@tessera/contracts";
import type { commodityAddReq, commodityUpdateReq } from "@tessera/contracts";
import type { z } from "zod";
import { withTx, type Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import { audit } from "../../platform/audit";
import { invalid } from "../../platform/http/errors";
import { merchantNames, merchantOfActor } from "../merchants";
import * as commoditiesRepo from "./commodities.repo";
import { notFoundCommodity } from "./presenter";
import type { CommerceDeps } from "./service";
import type { SpecGroup } from "./tables";
import { pageWindow } from "../../db/paginate";

type CommodityAdd = z.output<typeof commodityAddReq>;
type CommodityUpdate = z.output<typeof commodityUpdateReq>;

/** Every combination of the groups' values, in order: colour × size. */
export function combinations(groups: SpecGroup[]): string[][] {
  return groups.reduce<string[][]>((acc, g) => acc.flatMap((prefix) => g.values.map((v) => [...prefix, v])), [[]]);
}

function checkSkus(groups: SpecGroup[], skus: { specs: string[] }[]): void {
  for (const g of groups) {
    if (new Set(g.values).size !== g.values.length) throw invalid("commerce.specInvalid", "specGroups");
  }
  if (new Set(groups.map((g) => g.name)).size !== groups.length) throw invalid("commerce.specInvalid", "specGroups");
  const seen = new Set<string>();
  for (const [i, s] of skus.entries()) {
    const fits = s.specs.length === groups.length && s.specs.every((v, k) => groups[k]?.values.includes(v));
    const key = JSON.stringify(s.specs);
    if (!fits || seen.has(key)) throw invalid("commerce.specsMismatch", `skus.${i}.specs`);
    seen.add(key);
  }
}

/**
 * Commodities and their SKUs (brand): add, replace, shelve, sort, their video; the purchasers' selection
 * of all brands' goods on shelf and their resale picks.
 */
export class CommoditiesService {
  constructor(private readonly deps: CommerceDeps) {}

  private get db(): Db {
    return this.deps.db;
  }
  private now(): Date {
    return this.deps.clock.now();
  }

  async addCommodity(actor: Actor, req: CommodityAdd): Promise<Commodity> {
    const merchant = await merchantOfActor(this.db, actor);
    checkSkus(req.specGroups, req.skus);
    if (req.videoid) await this.deps.checkVideo(actor, req.videoid);
    const now = this.now();
    const id = await withTx(this.db, async (tx) => {
      const id = await commoditiesRepo.insertCommodity(tx, {
        merchantId: merchant.id,
        kind: req.kind,
        name: req.name,
        category: req.category,
        description: req.description,
        images: req.images,
        videoId: req.videoid ? Number(req.videoid) : null,
        specGroups: req.specGroups,
        sort: req.sort,
        weightG: req.weightG,
        freightFirst: req.freightFirst,
        freightExtra: req.freightExtra,
        freeOver: req.freeOver,
        currency: merchant.currency,
        now,
      });
      for (const s of req.skus) {
        await commoditiesRepo.insertSku(tx, {
          commodityId: id,
          merchantId: merchant.id,
          specs: s.specs,
          price: s.price,
          stock: s.stock,
          code: s.code ?? "",
        });
      }
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.commodity.add",
        subjectType: "commerce_commodity",
        subjectId: id,
      });
      return id;
    });
    return this.commodity(actor, id);
  }

  /** Replaces the commodity's fields and SKUs: SKUs named by id are changed, others added, missing ones removed (or retired when ordered). */
  async updateCommodity(actor: Actor, req: CommodityUpdate): Promise<Commodity> {
    const merchantId = tenantOf(actor);
    const id = Number(req.id);
    checkSkus(req.specGroups, req.skus);
    if (req.videoid) await this.deps.checkVideo(actor, req.videoid);
    const now = this.now();
    await withTx(this.db, async (tx) => {
      const c = await commoditiesRepo.lockCommodity(tx, id, merchantId);
      if (!c) throw notFoundCommodity();
      const existing = new Map((await commoditiesRepo.allSkusOf(tx, id)).map((s) => [s.id, s]));
      const kept = new Set<number>();
      for (const [i, s] of req.skus.entries()) {
        const skuId = s.id ? Number(s.id) : undefined;
        if (skuId !== undefined) {
          if (!existing.has(skuId)) throw invalid("commerce.specsMismatch", `skus.${i}.id`);
          kept.add(skuId);
          await commoditiesRepo.updateSku(tx, skuId, {
            specs: s.specs,
            price: s.price,
            stock: s.stock,
            code: s.code ?? "",
            active: true,
          });
        } else {
          await commoditiesRepo.insertSku(tx, {
            commodityId: id,
            merchantId,
            specs: s.specs,
            price: s.price,
            stock: s.stock,
            code: s.code ?? "",
          });
        }
      }
      for (const old of existing.values()) {
        if (kept.has(old.id)) continue;
        if (await commoditiesRepo.skuHasOrders(tx, old.id)) {
          await commoditiesRepo.updateSku(tx, old.id, {
            specs: old.specs,
            price: old.price,
            stock: 0,
            code: old.code,
            active: false,
          });
        } else await commoditiesRepo.deleteSku(tx, old.id);
      }
      await commoditiesRepo.updateCommodity(tx, id, merchantId, {
        name: req.name,
        category: req.category,
        description: req.description,
        images: req.images,
        ...(req.videoid !== undefined && { videoId: req.videoid ? Number(req.videoid) : null }),
        specGroups: req.specGroups,
        sort: req.sort,
        weightG: req.weightG,
        freightFirst: req.freightFirst,
        freightExtra: req.freightExtra,
        freeOver: req.freeOver,
        now,
      });
      await audit(tx, {
        actorUserId: actor.userId,
        action: "commerce.commodity.update",
        subjectType: "commerce_commodity",
        subjectId: id,
      });
    });
    return this.commodity(actor, id);
  }

  /** `commodity/state/update`, `commodity/sort`, `commodity/video/update`. */
  async changeCommodity(
    actor: Actor,
    id: number,
    change: { onShelf?: boolean; sort?: number; videoid?: string | null },
  ): Promise<Commodity> {
    const merchantId = tenantOf(actor);
    if (change.videoid) await this.deps.checkVideo(actor, change.videoid);
    const changed = await withTx(this.db, async (tx) => {
      const ok = await commoditiesRepo.updateCommodity(tx, id, merchantId, {
        ...(change.onShelf !== undefined && { onShelf: change.onShelf }),
        ...(change.sort !== undefined && { sort: change.sort }),
        ...(change.videoid !== undefined && { videoId: change.videoid === null ? null : Number(change.videoid) }),
        now: this.now(),
      });
      if (ok) {
        await audit(tx, {
          actorUserId: actor.userId,
          action: "commerce.commodity.change",
          subjectType: "commerce_commodity",
          subjectId: id,
          detail: change,
        });
      }
      return ok;
    });
    if (!changed) throw notFoundCommodity();
    return this.commodity(actor, id);
  }

  async commodity(actor: Actor, id: number): Promise<Commodity> {
    const row = await commoditiesRepo.commodityOf(this.db, id, tenantOf(actor));
    if (!row) throw notFoundCommodity();
    const [c] = await this.presentCommodities([row]);
    if (!c) throw notFoundCommodity();
    return c;
  }

  /** `commodity/pager`: the brand's own commodities. */
  async commodityPage(
    actor: Actor,
    q: {
      page: number;
      pagesize: number;
      name?: string | undefined;
      kind?: "physical" | "virtual" | undefined;
      onShelf?: boolean | undefined;
    },
  ): Promise<Page<Commodity>> {
    const { rows, total } = await commoditiesRepo.commodityPage(this.db, {
      merchantId: tenantOf(actor),
      kind: q.kind,
      name: q.name,
      onShelf: q.onShelf,
      ...pageWindow({ page: q.page, pageSize: q.pagesize }),
    });
    return { list: await this.presentCommodities(rows), total, page: q.page, pageSize: q.pagesize };
  }

  /** PhysicalSelection / VirtualGoods (all brands' goods on shelf) and RealGoods (`picked=yes`). */
  async selection(
    actor: Actor,
    q: {
      page: number;
      pageSize: number;
      kind: "physical" | "virtual";
      name?: string | undefined;
      picked?: "yes" | "no" | undefined;
    },
  ): Promise<Page<Commodity>> {
    const purchaserId = tenantOf(actor);
    const { rows, total } = await commoditiesRepo.commodityPage(this.db, {
      kind: q.kind,
      name: q.name,
      onShelf: q.picked === "yes" ? undefined : true,
      ...(q.picked && { pickedBy: { purchaserId, picked: q.picked === "yes" } }),
      ...pageWindow(q),
    });
    const picked = await commoditiesRepo.pickedIds(
      this.db,
      purchaserId,
      rows.map((r) => r.id),
    );
    const list = (await this.presentCommodities(rows)).map((c) => ({ ...c, picked: picked.has(Number(c.id)) }));
    return { list, total, page: q.page, pageSize: q.pageSize };
  }

  async pick(actor: Actor, commodityId: number, retailPrice: number | null): Promise<{ picked: true }> {
    const purchaserId = tenantOf(actor);
    const c = await commoditiesRepo.commodityOf(this.db, commodityId);
    if (!c || !c.on_shelf) throw notFoundCommodity();
    if (c.merchant_id === purchaserId) throw invalid("commerce.ownGoods", "commodityId");
    await withTx(this.db, (tx) => commoditiesRepo.upsertResale(tx, purchaserId, commodityId, retailPrice, this.now()));
    return { picked: true };
  }

  async unpick(actor: Actor, commodityId: number): Promise<{ picked: false }> {
    const done = await withTx(this.db, (tx) => commoditiesRepo.deleteResale(tx, tenantOf(actor), commodityId));
    if (!done) throw notFoundCommodity();
    return { picked: false };
  }

  private async presentCommodities(rows: commoditiesRepo.CommodityRow[]): Promise<Commodity[]> {
    const skus = await commoditiesRepo.skusOf(
      this.db,
      rows.map((r) => r.id),
    );
    const names = await merchantNames(
      this.db,
      rows.map((r) => r.merchant_id),
    );
    return rows.map((r) => {
      const own = skus.filter((s) => s.commodity_id === r.id);
      return {
        id: String(r.id),
        merchantId: String(r.merchant_id),
        merchantName: names.get(r.merchant_id) ?? "",
        kind: r.kind,
        name: r.name,
        category: r.category,
        description: r.description,
        images: r.images,
        videoid: r.video_id === null ? null : String(r.video_id),
        specGroups: r.spec_groups,
        skus: own.map((s) => ({
          id: String(s.id),
          specs: s.specs,
          price: { amount: s.price, currency: r.currency },
          stock: s.stock,
          sold: s.sold,
          code: s.code,
        })),
        sort: r.sort,
        onShelf: r.on_shelf,
        weightG: r.weight_g,
        freightFirst: r.freight_first,
        freightExtra: r.freight_extra,
        freeOver: r.free_over,
        currency: r.currency,
        stock: own.reduce((a, s) => a + s.stock, 0),
        sold: own.reduce((a, s) => a + s.sold, 0),
        createdAt: new Date(r.created_at).toISOString(),
      };
    });
  }
}
