import type { Money } from "@tessera/contracts";
import { formatMoney } from "../../../ui/money";

export const fmt = (m: Money): string => formatMoney(m);
export const day = (iso: string | null): string => (iso ? iso.slice(0, 10) : "-");
export const STATE_COLOR: Record<string, string> = {
  activated: "green",
  sold: "blue",
  issued: "default",
  frozen: "orange",
  expired: "default",
  returned: "purple",
  void: "red",
};
