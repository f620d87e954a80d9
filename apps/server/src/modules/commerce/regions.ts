import { createRequire } from "node:module";

/**
 * The region data package (china-area-data, GB/T 2260 codes): province → city → county. Served by the
 * legacy province, city and county list calls, and the one check a consignee address passes. Some
 * codes are a province-level city's own districts directly (Beijing's 110100 lists them).
 */
type AreaData = Record<string, Record<string, string> | undefined>;
let data: AreaData | undefined;
function areas(): AreaData {
  data ??= createRequire(import.meta.url)("china-area-data/data.json") as AreaData;
  return data;
}

export interface Region {
  code: string;
  name: string;
}

const listOf = (parent: string): Region[] =>
  Object.entries(areas()[parent] ?? {}).map(([code, name]) => ({ code, name }));

export const provinces = (): Region[] => listOf("86");
/** The cities of a province; empty for a code that is not a province. */
export const cities = (provinceCode: string): Region[] => (areas()["86"]?.[provinceCode] ? listOf(provinceCode) : []);
/** The counties of a city; empty for a code that is not a city. */
export function counties(cityCode: string): Region[] {
  const province = `${cityCode.slice(0, 2)}0000`;
  return areas()[province]?.[cityCode] ? listOf(cityCode) : [];
}

/** "浙江省 杭州市 西湖区" when the three codes are a province, one of its cities and one of that city's counties. */
export function regionNames(provinceCode: string, cityCode: string, countyCode: string): string | undefined {
  const all = areas();
  const p = all["86"]?.[provinceCode];
  const c = all[provinceCode]?.[cityCode];
  const k = all[cityCode]?.[countyCode];
  return p && c && k ? `${p} ${c} ${k}` : undefined;
}
