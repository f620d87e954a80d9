/**
 * The top-up account rule (issue 40, item 4), without zod: the server's order paths, the web forms and
 * the storefront (a light entry, light.ts) check the same rule.
 */
import type { TopUpAccountType } from "./catalog";
import { EMAIL_RE } from "./validators";

/**
 * What a top-up account must look like for each account type (issue 40, item 4). Every path that charges
 * for a top-up (a purchaser's order, the open API, a mall checkout, a card-paid equity) refuses an account
 * that fails its goods' rule before any money moves, and the web forms check the same rule. "none" and
 * "other" only need an account (the length cap is the request schema's).
 */
export const TOP_UP_ACCOUNT_RULES: Readonly<Record<TopUpAccountType, RegExp | null>> = {
  none: null,
  /** A mainland mobile number: 11 digits, 13x-19x. */
  mobile: /^1[3-9]\d{9}$/,
  /** A QQ number: 5-11 digits, not starting with 0. */
  qq: /^[1-9]\d{4,10}$/,
  email: EMAIL_RE,
  /** A game account id: 4-32 letters, digits, _ or -. */
  game_id: /^[A-Za-z0-9_-]{4,32}$/,
  /** A membership account: 2-64 characters without spaces. */
  member_id: /^\S{2,64}$/,
  other: null,
};

/** The message a refused top-up account gets: it names what its type expects. */
export type TopUpAccountMessage = `topUpAccount.invalid.${Exclude<TopUpAccountType, "none" | "other">}`;

/**
 * Why `account` cannot be topped up for goods of this account type (a TopUpAccountType; any other is free), or null when it can (an empty account
 * is the callers' own "please enter the account" message). The account is compared as the forms send it, trimmed.
 */
export function topUpAccountProblem(type: string, account: string): TopUpAccountMessage | null {
  const rule = TOP_UP_ACCOUNT_RULES[type as TopUpAccountType] ?? null;
  if (rule === null || rule.test(account.trim())) return null;
  return `topUpAccount.invalid.${type as Exclude<TopUpAccountType, "none" | "other">}`;
}
