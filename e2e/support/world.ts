import type { APIRequestContext } from "@playwright/test";
import { playwrightTransport } from "../../apps/server/test/kit/call";
import { World } from "../../apps/server/test/kit/world";
import { apiCall, verifyRealName } from "./api";
import { E2E_OPERATOR, operatorToken } from "./operator";

/**
 * The test kit's world builder (apps/server/test/kit/world.ts) in a journey: its calls through the
 * journey's request context, its powers as a user and the operator have them (real-name verification
 * approved by the operator, money credited by the operator and moved to SUP).
 */
export function journeyWorld(request: APIRequestContext): World {
  return new World(playwrightTransport(request), {
    verify: (m) => verifyRealName(request, m.token),
    fund: async (m, amount) =>
      creditSup(request, {
        ops: await operatorToken(request),
        merchantId: m.merchantId,
        token: m.token,
        credit: amount,
        move: amount,
        creditKey: `e2e-fund-${m.merchantId}-${Date.now()}`,
        moveKey: `e2e-fund-move-${m.merchantId}-${Date.now()}`,
      }),
    operator: async () => ({ email: E2E_OPERATOR.email, token: await operatorToken(request) }),
  });
}

/**
 * Money in a purchaser's SUP account the way it gets there: the operator credits `credit` to its reserve
 * account (`ops`: the operator's token), the purchaser moves `move` of it to SUP. Both must succeed.
 */
export async function creditSup(
  request: APIRequestContext,
  f: {
    ops: string;
    merchantId: string;
    token: string;
    credit: number;
    move: number;
    creditKey: string;
    moveKey: string;
  },
): Promise<void> {
  await apiCall(request, f.ops, "post", `/api/ops/funds/merchants/${f.merchantId}/credit`, {
    amount: f.credit,
    reason: "e2e",
    requestKey: f.creditKey,
  });
  await apiCall(request, f.token, "post", "/api/card-user/funds/reserveTransfer", {
    amount: f.move,
    requestKey: f.moveKey,
  });
}
