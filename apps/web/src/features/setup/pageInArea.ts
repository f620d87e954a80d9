/**
 * Pages the international mini-program mall hosts as tabs of its EquityApplet page (spec 01 marketplace
 * screen 15) where the domestic purchaser has them as pages of their own.
 */
const HOSTED_AS_TAB: Record<string, string> = { SmsSendRecord: "EquityApplet?tab=sms" };

/**
 * Where a step's page (named by the server as the domestic one, "/sale/EquityApplet") is in the area the
 * user is in: the same page under the area's base, or the page that hosts it; undefined when the area has
 * neither (the capability is not offered there).
 */
export function pageInArea(
  page: string,
  area: { base: string; pages: readonly { path: string }[] } | undefined,
): string | undefined {
  if (!area) return undefined;
  const name = page.slice(page.lastIndexOf("/") + 1);
  const hosted = HOSTED_AS_TAB[name];
  const target = area.pages.some((p) => p.path === name) ? name : hosted;
  if (!target || !area.pages.some((p) => p.path === target.split("?")[0])) return undefined;
  return `${area.base}/${target}`;
}
