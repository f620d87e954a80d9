export {
  balanceAt,
  balancesOf,
  checkInvariants,
  fundChanges,
  positiveAccounts,
  post,
  type AccountRef,
  type EntryFilter,
  type PostRequest,
  type PostResult,
  type Posting,
} from "./service";
