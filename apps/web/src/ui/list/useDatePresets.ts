import dayjs from "dayjs";
import { useTranslation } from "react-i18next";
import { DATE_SHORTCUTS, shortcutRange } from "./dateShortcuts";

/**
 * The seven date shortcuts of spec 01 §2 (yesterday, last week, last month, today, this week, this month,
 * this year) as a RangePicker's `presets`, in the reader's language: every date-range picker offers the same
 * ones, the list search bars' and the report pages' alike (issue 40, item 18).
 */
export function useDatePresets() {
  const { t } = useTranslation();
  return DATE_SHORTCUTS.map((key) => ({
    label: t(`search.shortcut.${key}`),
    value: () => shortcutRange(key, dayjs()),
  }));
}
