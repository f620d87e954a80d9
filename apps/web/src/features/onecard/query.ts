import { ONECARD_KINDS, type OnecardKind } from "@tessera/contracts";
import type { ListState } from "../../ui/list/listQuery";

const kindOf = (v: unknown): OnecardKind | undefined =>
  (ONECARD_KINDS as readonly unknown[]).includes(v) ? (v as OnecardKind) : undefined;

/** The mall's call for a list state: keyword (inpVal) and kind (selVal). */
export function mallQuery(state: ListState) {
  return {
    page: state.page,
    pageSize: state.pageSize,
    keyword: state.values.inpVal,
    kind: kindOf(state.values.selVal),
  };
}

/** A single select value of a list state. */
export const one = (v: string | string[] | undefined): string | undefined => (typeof v === "string" ? v : undefined);
