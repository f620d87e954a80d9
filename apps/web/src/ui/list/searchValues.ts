import dayjs, { type Dayjs } from "dayjs";

/**
 * Search bar values (spec 01 §2 field names) in two shapes: the form's (dayjs objects) and the
 * serialisable one kept in the URL and handed to pages (strings). Dates carry the local offset
 * (`2026-11-23T00:00:00+08:00`); months are `YYYY-MM`.
 */
export interface SearchValues {
  inpKey?: string;
  inpVal?: string;
  selKey?: string;
  selVal?: string | string[];
  selKeyT?: string;
  selValT?: string | string[];
  date?: [string, string];
  month?: string | [string, string];
  curCascader?: string[];
}

export interface SearchFormValues {
  inpKey?: string;
  inpVal?: string;
  selKey?: string;
  selVal?: string | string[];
  selKeyT?: string;
  selValT?: string | string[];
  date?: [Dayjs, Dayjs] | null;
  month?: Dayjs | [Dayjs, Dayjs] | null;
  curCascader?: (string | number)[];
}

export type DateMode = "date" | "datetime" | "monthRange" | "month";

export const SEARCH_FIELDS = [
  "inpKey",
  "inpVal",
  "selKey",
  "selVal",
  "selKeyT",
  "selValT",
  "date",
  "month",
  "curCascader",
] as const;

const MONTH_FORMAT = "YYYY-MM";

function nonEmpty(v: string | undefined): string | undefined {
  const s = v?.trim();
  return s ? s : undefined;
}

function nonEmptyList(v: string | string[] | undefined): string | string[] | undefined {
  if (Array.isArray(v)) return v.length ? v : undefined;
  return nonEmpty(v);
}

export function toSearchValues(form: SearchFormValues, mode?: DateMode): SearchValues {
  const out: SearchValues = {};
  const inpVal = nonEmpty(form.inpVal);
  if (inpVal) {
    out.inpVal = inpVal;
    if (form.inpKey) out.inpKey = form.inpKey;
  }
  const selVal = nonEmptyList(form.selVal);
  if (selVal !== undefined) {
    out.selVal = selVal;
    if (form.selKey) out.selKey = form.selKey;
  }
  const selValT = nonEmptyList(form.selValT);
  if (selValT !== undefined) {
    out.selValT = selValT;
    if (form.selKeyT) out.selKeyT = form.selKeyT;
  }
  if (form.date && (mode === "date" || mode === "datetime")) {
    const [a, b] = form.date;
    out.date = mode === "date" ? [a.startOf("day").format(), b.endOf("day").format()] : [a.format(), b.format()];
  }
  if (form.month && mode === "month" && !Array.isArray(form.month)) out.month = form.month.format(MONTH_FORMAT);
  if (form.month && mode === "monthRange" && Array.isArray(form.month)) {
    out.month = [form.month[0].format(MONTH_FORMAT), form.month[1].format(MONTH_FORMAT)];
  }
  if (form.curCascader?.length) out.curCascader = form.curCascader.map(String);
  return out;
}

function parse(v: string): Dayjs | null {
  const d = dayjs(v);
  return d.isValid() ? d : null;
}

export function toFormValues(values: SearchValues, mode?: DateMode): SearchFormValues {
  const out: SearchFormValues = {
    inpKey: values.inpKey,
    inpVal: values.inpVal,
    selKey: values.selKey,
    selVal: values.selVal,
    selKeyT: values.selKeyT,
    selValT: values.selValT,
    curCascader: values.curCascader,
  };
  if (values.date && (mode === "date" || mode === "datetime")) {
    const a = parse(values.date[0]);
    const b = parse(values.date[1]);
    if (a && b) out.date = [a, b];
  }
  if (values.month && mode === "month") {
    const m = parse(Array.isArray(values.month) ? values.month[0] : values.month);
    if (m) out.month = m;
  }
  if (values.month && mode === "monthRange" && Array.isArray(values.month)) {
    const a = parse(values.month[0]);
    const b = parse(values.month[1]);
    if (a && b) out.month = [a, b];
  }
  return out;
}
