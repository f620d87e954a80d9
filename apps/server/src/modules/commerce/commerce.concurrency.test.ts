import { afterAll, expect, it } from "vitest";
import { registerMerchant } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { fundSup } from "../../../test/money";
import { checkInvariants } from "../ledger";
import { pushSign } from "../../platform/adapters/courier";
import { invariantProblems } from "./repo";

/** On the PostgreSQL server only: the last units of a SKU, a refund and tracking pushes, raced. */
const t = useTestApp({ COURIER_PUSH_SALT: "race-salt" });
afterAll(async () => {
  expect(await checkInvariants(t.ctx.database.db)).toEqual([]);
  expect(await invariantProblems(t.ctx.database.db)).toEqual([]);
});

type Merchant = Awaited<ReturnType<typeof registerMerchant>>;
interface Commodity {
  id: string;
  skus: { id: string; stock: number; sold: number }[];
}
interface Order {
  id: string;
  items: { id: string; amount: { amount: number } }[];
  payAmount: { amount: number };
}
const address = {
  name: "Han Meimei",
  phone: "13900139000",
  provinceCode: "440000",
  cityCode: "440300",
  countyCode: "440305",
  address: "Keyuan Road 2",
};
const supOf = async (m: Merchant) =>
  (await t.call<{ balances: { sup: { amount: number } } }>("GET", "/api/card-user/userInfo", { token: m.token })).body
    .data.balances.sup.amount;

async function goods(stock: number): Promise<{ brand: Merchant; c: Commodity }> {
  const brand = await registerMerchant(t, { orgName: "Race Brand Co" });
  const added = await t.call<Commodity>("POST", "/api/ecommerce/commodity/add", {
    token: brand.token,
    body: { name: "Limited mug", skus: [{ specs: [], price: 1_000, stock }] },
  });
  await t.call("POST", "/api/ecommerce/commodity/state/update", {
    token: brand.token,
    body: { id: added.body.data.id, onShelf: true },
  });
  return { brand, c: added.body.data };
}

it("200 parallel orders for a SKU with 100 in stock: exactly 100 orders, stock 0", async () => {
  const { brand, c } = await goods(100);
  const buyers = await Promise.all(Array.from({ length: 5 }, () => registerMerchant(t)));
  const skuId = c.skus[0]?.id;
  const results = await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const b = buyers[i % buyers.length];
      return t.call("POST", "/api/card-user/commerce/orders", {
        token: b?.token ?? "",
        body: { items: [{ skuId, quantity: 1 }], consignee: address, requestKey: `race-order-${c.id}-${i}` },
      });
    }),
  );
  expect(results.every((r) => r.status < 500)).toBe(true);
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(100);
  expect(results.filter((r) => r.status === 409)).toHaveLength(100);
  const after = await t.call<{ list: Commodity[] }>("POST", "/api/ecommerce/commodity/pager", {
    token: brand.token,
    body: {},
  });
  expect(after.body.data.list[0]?.skus[0]).toMatchObject({ stock: 0, sold: 100 });
  let total = 0;
  for (const b of buyers) {
    total += (await t.call<{ total: number }>("GET", "/api/card-user/commerce/orders", { token: b.token })).body.data
      .total;
  }
  expect(total).toBe(100);
});

it("paying and cancelling one order raced: the money moves once and the stock comes back once", async () => {
  const { brand, c } = await goods(10);
  const p = await registerMerchant(t);
  await fundSup(t, p, 100_000);
  const o = await t.call<Order>("POST", "/api/card-user/commerce/orders", {
    token: p.token,
    body: { items: [{ skuId: c.skus[0]?.id, quantity: 4 }], consignee: address, requestKey: `race-pc-${c.id}` },
  });
  const results = await Promise.all([
    ...Array.from({ length: 20 }, () =>
      t.call("POST", `/api/card-user/commerce/orders/${o.body.data.id}/pay`, { token: p.token }),
    ),
    ...Array.from({ length: 20 }, () =>
      t.call("POST", `/api/card-user/commerce/orders/${o.body.data.id}/cancel`, { token: p.token, body: {} }),
    ),
  ]);
  expect(results.every((r) => r.status < 500)).toBe(true);
  const paid = results.slice(0, 20).filter((r) => r.body.code === 1).length;
  const cancelled = results.slice(20).filter((r) => r.body.code === 1).length;
  expect(paid).toBeLessThanOrEqual(1);
  expect(cancelled).toBeLessThanOrEqual(1);
  expect(await supOf(p)).toBe(100_000);
  const after = await t.call<{ list: Commodity[] }>("POST", "/api/ecommerce/commodity/pager", {
    token: brand.token,
    body: {},
  });
  expect(after.body.data.list[0]?.skus[0]?.stock).toBe(10);
});

it("an after-sales refund raced 50 times refunds once", async () => {
  const { brand, c } = await goods(10);
  const p = await registerMerchant(t);
  await fundSup(t, p, 100_000);
  const o = await t.call<Order>("POST", "/api/card-user/commerce/orders", {
    token: p.token,
    body: { items: [{ skuId: c.skus[0]?.id, quantity: 2 }], consignee: address, requestKey: `race-as-${c.id}` },
  });
  await t.call("POST", `/api/card-user/commerce/orders/${o.body.data.id}/pay`, { token: p.token });
  const line = o.body.data.items[0];
  const applied = await t.call<{ id: string }>("POST", "/api/card-user/commerce/aftersales", {
    token: p.token,
    body: {
      orderItemId: line?.id,
      way: "refund",
      quantity: 1,
      amount: 1_000,
      reason: "Damaged",
      requestKey: `race-as-apply-${c.id}`,
    },
  });
  const before = await supOf(p);
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.call("POST", "/api/ecommerce/afterservice/dispose", {
        token: brand.token,
        body: { id: applied.body.data.id, action: "agree" },
      }),
    ),
  );
  expect(results.filter((r) => r.body.code === 1)).toHaveLength(1);
  expect(results.filter((r) => r.status === 409)).toHaveLength(49);
  expect(await supOf(p)).toBe(before + 1_000);
  // Many applications for one line at once: one case.
  const line2 = o.body.data.items[0];
  const c2 = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      t.call("POST", "/api/card-user/commerce/aftersales", {
        token: p.token,
        body: {
          orderItemId: line2?.id,
          way: "refund",
          quantity: 1,
          amount: 500,
          reason: "again",
          requestKey: `race-as-many-${c.id}-${i}`,
        },
      }),
    ),
  );
  expect(c2.every((r) => r.status < 500)).toBe(true);
  // The first case is complete, so every further one is refused.
  expect(c2.filter((r) => r.body.code === 1)).toHaveLength(0);
});

it("tracking pushes replayed at once store each event once", async () => {
  const { brand, c } = await goods(5);
  const p = await registerMerchant(t);
  await fundSup(t, p, 100_000);
  const o = await t.call<Order>("POST", "/api/card-user/commerce/orders", {
    token: p.token,
    body: { items: [{ skuId: c.skus[0]?.id, quantity: 1 }], consignee: address, requestKey: `race-push-${c.id}` },
  });
  await t.call("POST", `/api/card-user/commerce/orders/${o.body.data.id}/pay`, { token: p.token });
  const waybill = `JD${Date.now()}`;
  await t.call("POST", "/api/ecommerce/order/express/create", {
    token: brand.token,
    body: { orderId: o.body.data.id, companyCode: "jd", waybillNo: waybill },
  });
  const param = JSON.stringify({
    status: "shutdown",
    lastResult: {
      state: "3",
      com: "jd",
      nu: waybill,
      ischeck: "1",
      data: [
        { time: "2026-11-21 10:00:00", context: "已签收", status: "签收", statusCode: "301" },
        { time: "2026-11-21 08:00:00", context: "派送中", status: "派件", statusCode: "5" },
        { time: "2026-11-20 20:00:00", context: "已揽收", status: "揽收", statusCode: "103" },
      ],
    },
  });
  const sign = pushSign(param, "race-salt");
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      t.app.inject({ method: "POST", url: "/api/ecommerce/express/push", payload: { param, sign } }),
    ),
  );
  expect(results.every((r) => r.statusCode === 200)).toBe(true);
  const tr = await t.call<{ events: unknown[]; state: number }>("POST", "/api/ecommerce/order/express/query", {
    token: brand.token,
    body: { orderId: o.body.data.id },
  });
  expect(tr.body.data.events).toHaveLength(3);
  expect(tr.body.data.state).toBe(3);
  const ord = await t.call<{ state: string }>("GET", `/api/card-user/commerce/orders/${o.body.data.id}`, {
    token: p.token,
  });
  expect(ord.body.data.state).toBe("received");
});
