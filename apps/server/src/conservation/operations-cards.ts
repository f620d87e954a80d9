import { at, judged, type Op } from "./operations";
import { uniq, type World } from "./world";

/**
 * The one-card operations of a purchaser (operations.ts describes them all): cards bought, activated,
 * returned, and given to a customer who claims them. (Their redemption at a store is operations-stores.ts'.)
 */
export type CardOp = Extract<Op, { op: "cardBuy" | "cardActivate" | "cardReturn" | "cardGift" }>;

/** Performs one one-card operation (perform's share of them). */
export async function performCardOp(w: World, o: CardOp): Promise<string> {
  const { t } = w;
  const db = t.ctx.database.db;
  switch (o.op) {
    case "cardBuy": {
      const p = w.purchasers[o.who] ?? w.purchasers[0];
      if (!p) throw new Error("no purchaser");
      const r = await judged(w, "card purchase", () =>
        t.call<{ id: string }>("POST", "/api/card-user/onecard/purchase", {
          token: p.token,
          body: { productId: w.cardProductId, quantity: o.quantity, requestKey: uniq("CB") },
        }),
      );
      if (r.outcome === "done") w.made.cardSales.push({ id: r.data.id, purchaser: o.who });
      return `cardBuy:${r.outcome}`;
    }
    case "cardActivate":
    case "cardReturn": {
      const sale = at(w.made.cardSales, o.pick);
      if (!sale) return `${o.op}:nothing`;
      const p = w.purchasers[sale.purchaser];
      if (!p) throw new Error("no purchaser");
      const cards = await db
        .selectFrom("onecard_cards")
        .select(["id", "state"])
        .where("sale_id", "=", Number(sale.id))
        .orderBy("id")
        .execute();
      const mixed = cards.some((c) => c.state !== "sold");
      const r =
        o.op === "cardActivate"
          ? await judged(
              w,
              "card activation",
              () =>
                t.call("POST", "/api/card-user/onecard/activate", {
                  token: p.token,
                  body: { saleId: sale.id, requestKey: uniq("CA") },
                }),
              mixed ? "refused" : "done",
            )
          : await judged(
              w,
              "card return",
              () =>
                t.call("POST", "/api/card-user/onecard/returns", {
                  token: p.token,
                  body: { cardIds: cards.map((c) => String(c.id)), reason: "not sold", requestKey: uniq("CR") },
                }),
              mixed ? "refused" : "done",
            );
      return `${o.op}:${r.outcome}`;
    }
    case "cardGift": {
      const sale = at(w.made.cardSales, o.pick);
      if (!sale) return "cardGift:nothing";
      const p = w.purchasers[sale.purchaser];
      const c = w.customers[o.who];
      if (!p || !c) throw new Error("no purchaser or customer");
      const cards = await db
        .selectFrom("onecard_cards")
        .select("id")
        .where("sale_id", "=", Number(sale.id))
        .orderBy("id")
        .execute();
      const r = await judged(w, "card gift", () =>
        t.call("POST", "/api/card-user/onecard/gifts", {
          token: p.token,
          body: { cardIds: cards.map((x) => String(x.id)), phone: c.phone, message: "enjoy", requestKey: uniq("CG") },
        }),
      );
      if (r.outcome !== "done") return "cardGift:refused";
      // The customer claims what waits in the card bag: the cards are theirs to spend at the brand's store.
      const bag = await t.call<{ gifts: { id: string; state: string }[] }>("GET", "/api/mall/onecard/bag", {
        headers: { "x-customer-token": c.token },
      });
      for (const g of bag.body.data.gifts) {
        const claimed = await judged(w, "gift claim", () =>
          t.call("POST", `/api/mall/onecard/gifts/${g.id}/claim`, { headers: { "x-customer-token": c.token } }),
        );
        if (claimed.outcome !== "done") return "cardGift.claim:refused";
      }
      return "cardGift:done";
    }
  }
}
