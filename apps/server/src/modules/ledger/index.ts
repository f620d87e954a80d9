export {
  balanceAt,
  balancesOf,
  checkInvariants,
  fundChanges,
  periodTotals,
  positiveAccounts,
  post,
  type AccountRef,
  type EntryFilter,
  type PostRequest,
  type PostResult,
  type Posting,
} from "./service";
