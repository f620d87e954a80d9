/**
 * Countries and regions offered on international registration. Spec 01 §1: the international version is
 * open only to organisations from Hong Kong, Singapore, Europe and the Americas. The select lists every
 * region (by ISO 3166 code; the web shows names through Intl.DisplayNames) so that a user from elsewhere
 * gets a clear refusal rather than a missing option.
 */
const EUROPE =
  "AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC MD ME MK MT NL NO PL PT RO RS RU SE SI SK SM UA VA XK";
const AMERICAS =
  "AG AI AR AW BB BL BM BO BQ BR BS BZ CA CL CO CR CU CW DM DO EC FK GD GF GL GP GT GY HN HT JM KN KY LC MF MQ MS MX NI PA PE PM PR PY SR SV SX TC TT US UY VC VE VG VI";
const ELSEWHERE =
  "AE AF AM AO AU AZ BD BH BI BJ BN BT BW CD CF CG CI CM CN DJ DZ EG ER ET FJ GA GE GH GM GN GQ GW ID IL IN IQ IR JO JP KE KG KH KI KM KP KR KW KZ LA LB LK LR LS LY MA MG ML MM MN MO MR MU MV MW MY MZ NA NE NG NP NR NZ OM PG PH PK PS PW QA RW SA SB SC SD SL SN SO SS ST SY SZ TD TG TH TJ TL TM TN TO TR TV TW TZ UG UZ VN VU WS YE ZA ZM ZW";

export const ALLOWED_INTERNATIONAL_REGIONS: ReadonlySet<string> = new Set([
  "HK",
  "SG",
  ...EUROPE.split(" "),
  ...AMERICAS.split(" "),
]);

/** Every region code offered in the country select, allowed ones first. */
export const ALL_REGION_CODES: readonly string[] = [
  "HK",
  "SG",
  ...EUROPE.split(" "),
  ...AMERICAS.split(" "),
  ...ELSEWHERE.split(" "),
];

export function isAllowedInternationalRegion(code: string): boolean {
  return ALLOWED_INTERNATIONAL_REGIONS.has(code.toUpperCase());
}
