import type {
  Lang,
  OcReport,
  OcSalesOrder,
  OcSalesOrderQuery,
  OcServedExtraction,
  OcServedExtractionQuery,
  Page,
} from "@tessera/contracts";
import { sql } from "kysely";
import type { Db } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import type { ExportColumn } from "../../platform/http/export";
import { displayTime } from "../../platform/clock";
import { merchantOfActor } from "../merchants";
import { pageWindow } from "../../db/paginate";

interface SalesOrderRow {
  id: number;
  created_at: Date;
  product_name: string;
  brander_name: string;
  quantity: number;
  unit_price: string;
  face_value: string;
  currency: "CNY" | "USD" | "HKD";
  activated: string;
  gifted: string;
  in_bags: string;
  returned: string;
  redeemed: string;
  outstanding: string;
}

/**
 * CardSalesOrder: a purchaser's card purchases, each with what became of its cards: activated, gifted,
 * in customers' card bags, returned, what customers spent (redemptions less refunds) and the balance left.
 * Filtered by day range (platform days, UTC+8) and product; exported as xlsx page by page.
 */
export class CardSalesOrders {
  constructor(private readonly db: Db) {}

  async page(actor: Actor, q: OcSalesOrderQuery): Promise<Page<OcSalesOrder>> {
    const me = await merchantOfActor(this.db, actor);
    const where = sql`s.purchaser_id = ${me.id}
      ${q.from ? sql`AND s.created_at >= (${q.from}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'` : sql``}
      ${q.to ? sql`AND s.created_at < (${q.to}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'` : sql``}
      ${q.productId ? sql`AND s.product_id = ${Number(q.productId)}` : sql``}`;
    const { offset, limit } = pageWindow(q);
    const [rows, count] = await Promise.all([
      sql<SalesOrderRow>`
        SELECT s.id, s.created_at, p.name AS product_name, m.name AS brander_name, s.quantity, s.unit_price, s.face_value, s.currency,
          COUNT(*) FILTER (WHERE c.activated_at IS NOT NULL) AS activated,
          COUNT(*) FILTER (WHERE c.gift_id IS NOT NULL) AS gifted,
          COUNT(*) FILTER (WHERE c.customer_id IS NOT NULL) AS in_bags,
          COUNT(*) FILTER (WHERE c.state = 'returned') AS returned,
          COALESCE(SUM(c.balance) FILTER (WHERE c.state = 'activated'), 0) AS outstanding,
          COALESCE((SELECT -SUM(v.amount) FROM onecard_moves v JOIN onecard_cards vc ON vc.id = v.card_id
                    WHERE vc.sale_id = s.id AND v.kind IN ('redeem', 'capture', 'refund')), 0) AS redeemed
        FROM onecard_sales s
        JOIN onecard_products p ON p.id = s.product_id
        JOIN merchants m ON m.id = s.brander_id
        LEFT JOIN onecard_cards c ON c.sale_id = s.id
        WHERE ${where}
        GROUP BY s.id, p.name, m.name
        ORDER BY s.id DESC
        OFFSET ${offset} LIMIT ${limit}`.execute(this.db),
      sql<{ n: string }>`SELECT COUNT(*) AS n FROM onecard_sales s WHERE ${where}`.execute(this.db),
    ]);
    return { list: rows.rows.map(present), total: Number(count.rows[0]?.n ?? 0), page: q.page, pageSize: q.pageSize };
  }

  /** Every page of the filtered list, for the export. */
  async *pages(actor: Actor, q: OcSalesOrderQuery): AsyncIterable<OcSalesOrder[]> {
    for (let page = 1; ; page += 1) {
      const { list } = await this.page(actor, { ...q, page, pageSize: 500 });
      if (list.length > 0) yield list;
      if (list.length < 500) return;
    }
  }
}

function present(r: SalesOrderRow): OcSalesOrder {
  const m = (amount: number) => ({ amount, currency: r.currency });
  return {
    id: String(r.id),
    createdAt: new Date(r.created_at).toISOString(),
    productName: r.product_name,
    branderName: r.brander_name,
    quantity: Number(r.quantity),
    amount: m(Number(r.unit_price) * Number(r.quantity)),
    faceValue: m(Number(r.face_value)),
    activated: Number(r.activated),
    gifted: Number(r.gifted),
    inBags: Number(r.in_bags),
    returned: Number(r.returned),
    redeemed: m(Number(r.redeemed)),
    outstanding: m(Number(r.outstanding)),
  };
}

const yuan = (m: { amount: number }) => m.amount / 100;

const SALES_ORDER_HEADERS = {
  cn: [
    "订单号",
    "下单时间",
    "卡种",
    "品牌",
    "数量",
    "金额",
    "面值",
    "已激活",
    "已赠送",
    "在卡包",
    "已退卡",
    "已消费",
    "余额",
  ],
  tw: [
    "訂單號",
    "下單時間",
    "卡種",
    "品牌",
    "數量",
    "金額",
    "面值",
    "已激活",
    "已贈送",
    "在卡包",
    "已退卡",
    "已消費",
    "餘額",
  ],
  en: [
    "Order",
    "Time",
    "Card product",
    "Brand",
    "Quantity",
    "Amount",
    "Face value",
    "Activated",
    "Gifted",
    "In card bags",
    "Returned",
    "Spent",
    "Balance left",
  ],
} as const;

export function salesOrderColumns(lang: Lang): ExportColumn<OcSalesOrder>[] {
  const h = SALES_ORDER_HEADERS[lang];
  const values: ((r: OcSalesOrder) => string | number)[] = [
    (r) => r.id,
    (r) => displayTime(r.createdAt),
    (r) => r.productName,
    (r) => r.branderName,
    (r) => r.quantity,
    (r) => yuan(r.amount),
    (r) => yuan(r.faceValue),
    (r) => r.activated,
    (r) => r.gifted,
    (r) => r.inBags,
    (r) => r.returned,
    (r) => yuan(r.redeemed),
    (r) => yuan(r.outstanding),
  ];
  return values.map((value, i) => ({ header: h[i] ?? "", value }));
}

const REPORT_HEADERS = {
  cn: ["周期", "售出张数", "售出金额", "激活张数", "激活面值", "退卡张数", "退卡金额", "已消费"],
  tw: ["週期", "售出張數", "售出金額", "激活張數", "激活面值", "退卡張數", "退卡金額", "已消費"],
  en: ["Period", "Cards sold", "Sales", "Cards activated", "Value activated", "Cards returned", "Refunded", "Spent"],
} as const;

export function reportColumns(lang: Lang): ExportColumn<OcReport["rows"][number]>[] {
  const h = REPORT_HEADERS[lang];
  const values: ((r: OcReport["rows"][number]) => string | number)[] = [
    (r) => r.period,
    (r) => r.soldCount,
    (r) => yuan(r.soldAmount),
    (r) => r.activatedCount,
    (r) => yuan(r.activatedValue),
    (r) => r.returnedCount,
    (r) => yuan(r.returnedAmount),
    (r) => yuan(r.redeemed),
  ];
  return values.map((value, i) => ({ header: h[i] ?? "", value }));
}

interface ServedExtractionRow {
  id: number;
  created_at: Date;
  count: number;
  email: string;
  merchant_id: number;
  merchant_name: string;
  currency: "CNY" | "USD" | "HKD";
  products: string | null;
  face_value: string | null;
}

/**
 * TikaOrder: the card extractions of the purchasers (vendors) a service provider serves: who took
 * delivery of how many cards of which products, and when. The numbers and passwords never leave the
 * purchaser's own extraction.
 */
export class ServedExtractions {
  constructor(
    private readonly db: Db,
    private readonly vendorsOf: (providerId: number) => Promise<number[]>,
  ) {}

  async page(actor: Actor, q: OcServedExtractionQuery): Promise<Page<OcServedExtraction>> {
    const me = await merchantOfActor(this.db, actor);
    let vendors = await this.vendorsOf(me.id);
    if (q.merchantId) vendors = vendors.filter((v) => v === Number(q.merchantId));
    if (vendors.length === 0) return { list: [], total: 0, page: q.page, pageSize: q.pageSize };
    const where = sql`e.purchaser_id IN (${sql.join(vendors)})
      ${q.from ? sql`AND e.created_at >= (${q.from}::date)::timestamp AT TIME ZONE 'Asia/Shanghai'` : sql``}
      ${q.to ? sql`AND e.created_at < (${q.to}::date + 1)::timestamp AT TIME ZONE 'Asia/Shanghai'` : sql``}`;
    const { offset, limit } = pageWindow(q);
    const [rows, count] = await Promise.all([
      sql<ServedExtractionRow>`
        SELECT e.id, e.created_at, cardinality(e.card_ids) AS count, u.email, m.id AS merchant_id, m.name AS merchant_name, m.currency,
          (SELECT string_agg(DISTINCT p.name, ', ') FROM onecard_cards c
            JOIN onecard_products p ON p.id = c.product_id WHERE c.id = ANY (e.card_ids)) AS products,
          (SELECT SUM(c.face_value) FROM onecard_cards c WHERE c.id = ANY (e.card_ids)) AS face_value
        FROM onecard_extractions e JOIN users u ON u.id = e.created_by JOIN merchants m ON m.id = e.purchaser_id
        WHERE ${where} ORDER BY e.id DESC OFFSET ${offset} LIMIT ${limit}`.execute(this.db),
      sql<{ n: string }>`SELECT COUNT(*) AS n FROM onecard_extractions e WHERE ${where}`.execute(this.db),
    ]);
    return {
      list: rows.rows.map((r) => ({
        id: String(r.id),
        count: Number(r.count),
        userEmail: r.email,
        createdAt: new Date(r.created_at).toISOString(),
        merchantId: String(r.merchant_id),
        merchantName: r.merchant_name,
        products: r.products ?? "",
        faceValue: { amount: Number(r.face_value ?? 0), currency: r.currency },
      })),
      total: Number(count.rows[0]?.n ?? 0),
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
