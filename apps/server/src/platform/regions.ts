import { createRequire } from "node:module";

/**
 * China's provinces, cities and counties (GB/T 2260 six-digit codes) from the region data package
 * (china-area-data): "86" lists the provinces, a province's code its cities, a city's code its counties.
 * Municipalities have placeholder cities (市辖区, 县); some codes are a province-level city's own districts
 * directly (Beijing's 110100 lists them). One home for stores' addresses and commerce's consignees.
 */
type AreaData = Record<string, Record<string, string> | undefined>;
let data: AreaData | undefined;
function areas(): AreaData {
  data ??= createRequire(import.meta.url)("china-area-data/data.json") as AreaData;
  return data;
}
const PLACEHOLDER_CITIES = new Set(["市辖区", "县", "省直辖县级行政区划", "自治区直辖县级行政区划"]);

/** Whether the three codes name a county of a city of the province. */
export function validRegion(province: string, city: string, county: string): boolean {
  const all = areas();
  return Boolean(all["86"]?.[province] && all[province]?.[city] && all[city]?.[county]);
}

/** "广东省 深圳市 南山区"; a municipality's placeholder city is left out ("北京市 东城区"). */
export function regionText(province: string, city: string, county: string): string {
  const all = areas();
  const c = all[province]?.[city] ?? "";
  return [all["86"]?.[province] ?? "", PLACEHOLDER_CITIES.has(c) ? "" : c, all[city]?.[county] ?? ""]
    .filter(Boolean)
    .join(" ");
}

/**
 * Codes for names as an import file writes them (province, city, county), or null. A municipality's
 * city may be written as the municipality itself (北京市 北京市 东城区), as its placeholder or left empty.
 */
type Codes = { provinceCode: string; cityCode: string; countyCode: string };
/** An import names the same few regions over and over: each triple is looked up once. */
const byNames = new Map<string, Codes | null>();
export function regionByNames(province: string, city: string, county: string): Codes | null {
  const memo = `${province}|${city}|${county}`;
  const seen = byNames.get(memo);
  if (seen !== undefined) return seen;
  const found = lookUp(province, city, county);
  if (byNames.size < 50_000) byNames.set(memo, found);
  return found;
}

function lookUp(province: string, city: string, county: string): Codes | null {
  const all = areas();
  const [p, c, k] = [province.trim(), city.trim(), county.trim()];
  const provinceCode = Object.entries(all["86"] ?? {}).find(([, n]) => n === p)?.[0];
  if (!provinceCode) return null;
  const cityList = Object.entries(all[provinceCode] ?? {});
  const named = cityList.filter(([, n]) => n === c);
  const candidates =
    named.length > 0 ? named : c === "" || c === p ? cityList.filter(([, n]) => PLACEHOLDER_CITIES.has(n)) : [];
  for (const [cityCode] of candidates) {
    const countyCode = Object.entries(all[cityCode] ?? {}).find(([, n]) => n === k)?.[0];
    if (countyCode) return { provinceCode, cityCode, countyCode };
  }
  return null;
}

export interface RegionNode {
  value: string;
  label: string;
  children: { value: string; label: string; children: { value: string; label: string }[] }[];
}

let tree: RegionNode[] | undefined;
/** The whole tree for a cascader (provinces with cities and counties; cities without counties left out). */
export function regionTree(): RegionNode[] {
  if (tree) return tree;
  const all = areas();
  tree = Object.entries(all["86"] ?? {})
    .map(([pc, pn]) => ({
      value: pc,
      label: pn,
      children: Object.entries(all[pc] ?? {})
        .map(([cc, cn]) => ({
          value: cc,
          label: cn,
          children: Object.entries(all[cc] ?? {}).map(([kc, kn]) => ({ value: kc, label: kn })),
        }))
        .filter((c) => c.children.length > 0),
    }))
    .filter((p) => p.children.length > 0);
  return tree;
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
