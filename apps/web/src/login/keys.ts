/**
 * The landing's cards, for the light screen and features/accounts/Landing.tsx alike: [title, text] keys
 * of core.json (light.test.ts checks that core.json has every key the screen shows).
 */
export const TILES = [
  ["landing.goods.topUp", "landing.goods.topUpText"],
  ["landing.goods.cardSecret", "landing.goods.cardSecretText"],
  ["landing.goods.coupon", "landing.goods.couponText"],
  ["landing.goods.funds", "landing.goods.fundsText"],
] as const;

export const FEATURES = [
  ["landing.features.purchaser", "landing.features.purchaserText"],
  ["landing.features.supplier", "landing.features.supplierText"],
  ["landing.features.api", "landing.features.apiText"],
  ["landing.features.security", "landing.features.securityText"],
] as const;

export const STEPS = [
  ["landing.steps.register", "landing.steps.registerText"],
  ["landing.steps.verify", "landing.steps.verifyText"],
  ["landing.steps.dock", "landing.steps.dockText"],
  ["landing.steps.trade", "landing.steps.tradeText"],
] as const;
