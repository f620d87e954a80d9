/** The storefront's wire constants (spec 01 §7: `v` 1, the app id, the seller id) and the colour themes of a mall config. */
export const MALL_APP_ID_HEADER = "x-app-id";
export const MALL_SELLER_ID_HEADER = "x-seller-id";
export const MALL_VERSION_HEADER = "v";
export const MALL_PROTOCOL_VERSION = "1";
export const MALL_PRIVATE_CODE_HEADER = "x-mall-code";

/** The colour themes 1-4 of a mall config: primary colour and a light tint. */
export const MALL_THEME_COLOURS: Record<number, { primary: string; tint: string }> = {
  1: { primary: "#e4393c", tint: "#fff1f0" },
  2: { primary: "#1677ff", tint: "#e6f4ff" },
  3: { primary: "#07a35a", tint: "#e8f8ef" },
  4: { primary: "#b8860b", tint: "#fdf6e3" },
};
