/**
 * The contracts' values that build no zod schema, for the light entries of the web app (the login's first
 * screen, the storefront): the barrel (index.ts) keeps its modules' side effects, so one value imported
 * from it brings zod and every schema (about 60 kB gzip). Types may still come from the barrel (erased).
 */
export * from "./lang";
export * from "./enums";
export * from "./codes";
export * from "./mall-storefront";
export * from "./top-up-account";
export * from "./zoned-time";
