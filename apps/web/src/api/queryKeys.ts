import type { FundAccount, Lang, OutboxQuery, Version } from "@tessera/contracts";
import type { Query } from "./client";

/** Every react-query key in one place, so invalidation after a mutation is exact. */
export const queryKeys = {
  userInfo: (version: Version, token: string | null) => ["userInfo", version, token] as const,
  userInfoAll: ["userInfo"] as const,
  commonConfig: ["commonConfig"] as const,
  dicts: (lang: Lang) => ["dicts", lang] as const,
  outbox: (query: OutboxQuery) => ["outbox", query] as const,
  fundChanges: (account: FundAccount, query: Query) => ["fundChanges", account, query] as const,
  fundChangesAll: ["fundChanges"] as const,
  bankDetails: ["bankDetails"] as const,
  topUps: (scope: "mine" | "ops", query: Query) => ["topUps", scope, query] as const,
  topUpsAll: ["topUps"] as const,
  withdrawalCard: ["withdrawalCard"] as const,
  withdrawals: (scope: "mine" | "ops", query: Query) => ["withdrawals", scope, query] as const,
  withdrawalsAll: ["withdrawals"] as const,
  transfers: (query: Query) => ["transfers", query] as const,
  transfersAll: ["transfers"] as const,
  transitAuth: ["transitAuth"] as const,
  dockings: (query: Query) => ["dockings", query] as const,
  dockingsAll: ["dockings"] as const,
  orders: (side: "purchaser" | "supplier", query: Query) => ["orders", side, query] as const,
  ordersAll: ["orders"] as const,
  brandAuths: (query: Query) => ["brandAuths", query] as const,
  brandAuthsAll: ["brandAuths"] as const,
  refunds: (side: "purchaser" | "supplier", query: Query) => ["refunds", side, query] as const,
  refundsAll: ["refunds"] as const,
  orderReports: (side: "purchaser" | "supplier", query: Query) => ["orderReports", side, query] as const,
  orderReportsAll: ["orderReports"] as const,
  statements: (unit: "day" | "month", range: { from: string; to: string }) => ["statements", unit, range] as const,
};
