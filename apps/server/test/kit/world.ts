import { uniquePhone } from "./accounts";
import type { Brand, Goods, GoodsReq } from "@tessera/contracts";
import { lastCode, registerMerchant, type RegisteredMerchant } from "./accounts";
import type { Caller, Transport } from "./call";
import { cardCsv } from "./cards";
import { importFile, newBrand, newGoods } from "./catalog-fixtures";

export { cardCsv } from "./cards";

/**
 * A world builder: the people and things a test needs (a supplier with stock, a docked and funded buyer,
 * a customer, an operator, a card-secret file), made through the API over any transport (kit/call.ts):
 * app.inject in server tests (`serverWorld(t)`, kit/server-world.ts), Playwright's request context in
 * journeys (`journeyWorld(request)`, e2e/support/world.ts), fetch in benches. What the API alone cannot do
 * in every tier (mark a merchant verified, put money in an account, make an operator) comes from the
 * `powers` the tier gives: the server tests' reach into the database, the journeys' operator.
 */
export type Merchant = RegisteredMerchant;
/** What the world needs of a merchant to act for it. */
export type Party = Pick<Merchant, "token" | "merchantId">;

export interface WorldPowers {
  /** Marks the merchant real-name verified (docking, purchase applications and orders need it). */
  verify(m: Party): Promise<void>;
  /** Money in the merchant's SUP account (what purchases are paid from), in fen. */
  fund(m: Party, amount: number): Promise<void>;
  /** A platform operator, logged in. */
  operator(): Promise<{ email: string; token: string }>;
}

export interface Stock {
  supplier: Merchant;
  brand: Brand;
  goods: Goods;
  /** The card numbers imported. */
  cards: string[];
}

let seq = 0;
/** A phone number no other test uses. */
export const newPhone = () => uniquePhone("13");

export class World implements Caller {
  constructor(
    readonly call: Transport,
    private readonly powers: WorldPowers,
  ) {}

  /** The last code the dev outbox "sent" to an address or phone. */
  code(to: string): Promise<string> {
    return lastCode(this, to);
  }

  /** A merchant registered and logged in (domestic unless told). */
  merchant(options: Parameters<typeof registerMerchant>[1] = {}): Promise<Merchant> {
    return registerMerchant(this, options);
  }

  /** A platform operator, logged in. */
  operator(): Promise<{ email: string; token: string }> {
    return this.powers.operator();
  }

  /** Marks a merchant verified (see WorldPowers.verify). */
  verify(m: Party): Promise<void> {
    return this.powers.verify(m);
  }

  /** Money in a merchant's SUP account (see WorldPowers.fund). */
  fund(m: Party, amount: number): Promise<void> {
    return this.powers.fund(m, amount);
  }

  /**
   * A supplier with a brand and a card-secret goods holding `cards` codes (10 by default), imported from a
   * card CSV (`cardCsv`).
   */
  async supplierWithStock(
    options: { orgName?: string; cards?: number; goods?: Partial<GoodsReq>; supplier?: Merchant } = {},
  ): Promise<Stock> {
    const supplier = options.supplier ?? (await this.merchant({ orgName: options.orgName ?? "Supplier Ltd" }));
    const brand = await newBrand(this, supplier);
    const goods = await newGoods(this, supplier, brand.id, options.goods);
    const prefix = `W${++seq}${Math.random().toString(36).slice(2, 7).toUpperCase()}`;
    const cards = Array.from({ length: options.cards ?? 10 }, (_, i) => `${prefix}${String(i).padStart(6, "0")}`);
    const imported = await importFile(
      this,
      supplier.token,
      goods.id,
      "cards.csv",
      cardCsv(cards.length, (i) => `${cards[i]},S-${cards[i]},`),
    );
    if (imported.body.code !== 1) throw new Error(`import: ${imported.body.msg}`);
    return { supplier, brand, goods, cards };
  }

  /** Signs a docking agreement as a merchant: an SMS code (scene signAgreement) to a phone, then confirm. */
  async signDocking(token: string, dockingId: string): Promise<{ code: number; msg: string }> {
    const phone = uniquePhone("15");
    await this.call("POST", "/api/card-user/sendSms", { token, body: { phone, scene: "signAgreement" } });
    const res = await this.call("POST", `/api/card-user/abutment/brander/confirm/${dockingId}`, {
      token,
      body: { phone, verifyCode: await this.code(phone) },
    });
    return res.body;
  }

  /** A purchaser docked with a supplier: applied, approved and signed by both (both verified first). */
  async dock(supplier: Party, buyer: Party): Promise<string> {
    for (const m of [buyer, supplier]) await this.verify(m);
    const applied = await this.call<{ id: string }>("POST", "/api/card-user/abutment/brander/apply", {
      token: buyer.token,
      body: { supplierId: supplier.merchantId },
    });
    if (applied.body.code !== 1) throw new Error(`dock apply: ${applied.body.msg}`);
    const id = applied.body.data.id;
    await this.call("POST", `/api/card-user/abutment/brander/review/${id}`, {
      token: supplier.token,
      body: { approve: true },
    });
    for (const token of [buyer.token, supplier.token]) {
      const signed = await this.signDocking(token, id);
      if (signed.code !== 1) throw new Error(`dock sign: ${signed.msg}`);
    }
    return id;
  }

  /** A buyer verified, docked with `supplier` and funded (`fund` in its SUP account, 1,000.00 by default; 0: none). */
  async dockedBuyer(
    supplier: Party,
    options: { orgName?: string; fund?: number; buyer?: Merchant } = {},
  ): Promise<{ buyer: Merchant; dockingId: string }> {
    const buyer = options.buyer ?? (await this.merchant({ orgName: options.orgName ?? "Buyer Ltd" }));
    const dockingId = await this.dock(supplier, buyer);
    const amount = options.fund ?? 100_000;
    if (amount > 0) await this.fund(buyer, amount);
    return { buyer, dockingId };
  }

  /**
   * A mall customer logged in with an SMS code: through a shop (its `headers`: x-app-id, x-seller-id) or,
   * without one, the platform's customer login. Its phone, token and the headers of its calls.
   */
  async customer(
    options: { phone?: string; shop?: Record<string, string> } = {},
  ): Promise<{ phone: string; token: string; headers: Record<string, string> }> {
    const phone = options.phone ?? newPhone();
    const sent = options.shop
      ? await this.call("POST", "/api/mall/shop/customer/sendSms", { headers: options.shop, body: { phone } })
      : await this.call("POST", "/api/mall/customer/sendSms", { body: { phone } });
    if (sent.body.code !== 1) throw new Error(`send: ${sent.body.msg}`);
    const res = await this.call<{ token: string }>("POST", "/api/mall/customer/login", {
      body: { phone, smsCode: await this.code(phone) },
    });
    if (res.body.code !== 1) throw new Error(`login: ${res.body.msg}`);
    const token = res.body.data.token;
    return { phone, token, headers: { ...options.shop, "x-customer-token": token } };
  }

  /** A card-secret import file (see kit/cards.ts). */
  readonly cardCsv = cardCsv;
}

/** A world over a transport with the tier's powers. */
export function world(call: Transport, powers: WorldPowers): World {
  return new World(call, powers);
}
