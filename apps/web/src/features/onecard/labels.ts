import type { OcProduct } from "@tessera/contracts";
import type { TFunction } from "i18next";
import { formatTime } from "../../ui/time";

export const STATE_COLOR: Record<string, string> = {
  activated: "green",
  sold: "blue",
  issued: "default",
  frozen: "orange",
  expired: "default",
  returned: "purple",
  void: "red",
};
export const GIFT_COLOR: Record<string, string> = { sent: "blue", claimed: "green", expired: "default" };

/** A product's validity in words: a fixed date, days from activation, or none. */
export function validityText(t: TFunction, v: OcProduct["validity"]): string {
  if (v.kind === "fixed") return t("onecard.validUntil", { date: v.until ?? "-" });
  if (v.kind === "days") return t("onecard.bo.daysAfter", { days: v.days ?? 0 });
  return t("onecard.noExpiry");
}

export const time = (iso: string | null): string => (iso ? formatTime(iso) : "-");
