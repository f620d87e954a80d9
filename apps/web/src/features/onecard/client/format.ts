import type { Money } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";
import { formatDay } from "../../../ui/time";

export const fmt = (m: Money): string => formatMoney(m);
export const day = (iso: string | null): string => formatDay(iso);
export const STATE_COLOR: Record<string, string> = {
  activated: "green",
  sold: "blue",
  issued: "default",
  frozen: "orange",
  expired: "default",
  returned: "purple",
  void: "red",
};
