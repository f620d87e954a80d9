export {
  balanceAt,
  balancesOf,
  checkInvariants,
  transactionCount,
  fundChanges,
  fundChangesOfMerchants,
  periodTotals,
  positiveAccounts,
  post,
  postingPart,
  preparePost,
  type AccountRef,
  type EntryFilter,
  type PostRequest,
  type PostResult,
  type Posting,
} from "./service";
export { feesPaidBy } from "./fees";
export {
  TRADE_CATEGORIES,
  tradeFactsSql,
  tradesByDay,
  tradesByMerchant,
  type MerchantTrades,
  type TradeCategory,
  type TradeDay,
  type TradeFactFilter,
} from "./trades.repo";
