import {
  apiPurchaseGoodsPage,
  apiPurchaseGoodsQuery,
  envelope,
  isCardBusinessType,
  type ApiPurchaseGoods,
  type ApiPurchaseGoodsQuery,
  type BusinessType,
  type Currency,
  type Page,
} from "@tessera/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { sql } from "kysely";
import type { Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { actorOf, tenantOf, type Guard } from "../../platform/auth/guard";
import { platformDay, type Clock } from "../../platform/clock";
import { ok } from "../../platform/http/envelope";
import { goodsMatching } from "../catalog";
import { getMerchant } from "../merchants";
import { mayBuyCondition } from "../docking";
import { agreedPriceOf } from "./agreed-price.sql";
import { pageWindow } from "../../db/paginate";

/**
 * The API purchase table of marketplace screen 11: the goods a purchaser may buy (the same eligibility
 * and price an order checks: docked, brand-authorised or whitelisted; its own agreed price first), on
 * sale in its market and currency, with what the open API's order call needs for each.
 */
export async function apiPurchaseGoods(
  db: Db,
  actor: Actor,
  q: ApiPurchaseGoodsQuery,
  now: Date,
): Promise<Page<ApiPurchaseGoods>> {
  const purchaserId = tenantOf(actor);
  const purchaser = await getMerchant(db, purchaserId);
  if (!purchaser) return { list: [], total: 0, page: q.page, pageSize: q.pageSize };
  const day = platformDay(now);
  const where = sql`g.state = 'available' AND g.merchant_id <> ${purchaserId} AND g.currency = ${purchaser.currency}
      AND (g.sales_scope = 'all' OR g.sales_scope = ${purchaser.version})
      AND ${mayBuyCondition(purchaserId, day, sql.ref("g.merchant_id"), sql.ref("g.id"))}
      ${q.keyword ? sql`AND ${goodsMatching(q.keyword, sql.ref("g.id"))}` : sql``}`;
  const { offset, limit } = pageWindow(q);
  const [rows, count] = await Promise.all([
    sql<{
      id: number;
      code: string;
      name: string;
      brand_name: string;
      supplier_name: string;
      business_type: BusinessType;
      currency: Currency;
      price: string | number;
      agreed: string | number | null;
      per_order_max: number;
      stock: number;
    }>`
      SELECT g.id, g.code, g.name, b.name AS brand_name, s.name AS supplier_name, g.business_type, g.currency, g.price,
             ${agreedPriceOf(purchaserId, sql.ref("g.id"))} AS agreed, g.per_order_max, g.stock
      FROM catalog_goods g JOIN catalog_brands b ON b.id = g.brand_id JOIN merchants s ON s.id = g.merchant_id
      WHERE ${where}
      ORDER BY g.id DESC OFFSET ${offset} LIMIT ${limit}`.execute(db),
    sql<{ n: string }>`SELECT count(*)::text AS n FROM catalog_goods g WHERE ${where}`.execute(db),
  ]);
  return {
    list: rows.rows.map((r) => {
      const price = Number(r.price);
      return {
        goodsId: String(r.id),
        code: r.code,
        name: r.name,
        brandName: r.brand_name,
        supplierName: r.supplier_name,
        businessType: r.business_type,
        fromStock: isCardBusinessType(r.business_type),
        price: { amount: r.agreed === null ? price : Number(r.agreed), currency: r.currency },
        listPrice: { amount: price, currency: r.currency },
        perOrderMax: r.per_order_max,
        stock: r.stock,
      };
    }),
    total: Number(count.rows[0]?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
  };
}

/** `GET /api/card-user/apiPurchase/goods`: the purchaser's API purchase table. */
export function apiPurchaseRoutes(deps: { db: Db; clock: Clock; guard: Guard }): FastifyPluginAsyncZod {
  // eslint-disable-next-line @typescript-eslint/require-await
  return async (app) => {
    const buyer = deps.guard({ roles: ["sale"], menu: ["sale/GoodsPurchaseForm"] });
    app.get(
      "/apiPurchase/goods",
      {
        schema: {
          tags: ["purchasing"],
          security: [{ authToken: [] }],
          summary: "Goods the purchaser may buy through the open API, with price and SKU code",
          querystring: apiPurchaseGoodsQuery,
          response: { 200: envelope(apiPurchaseGoodsPage) },
        },
        preHandler: buyer,
      },
      async (req) => ok(await apiPurchaseGoods(deps.db, actorOf(req), req.query, deps.clock.now())),
    );
  };
}
