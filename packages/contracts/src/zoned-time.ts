/**
 * How an instant reads in a time zone, shared by the server (exports, PDFs, messages) and the web app
 * (pages): "YYYY-MM-DD HH:mm[:ss]" in the platform's display zone (TZ_DISPLAY, Asia/Shanghai unless set).
 * No zod: the web's light entries take it through `@tessera/contracts/light`.
 */
export interface ZonedParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(zone, f);
  }
  return f;
}

/** Whether the runtime knows an IANA zone. */
export function isKnownZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar and clock fields of an instant in a zone, zero-padded. */
export function zonedParts(at: Date, zone: string): ZonedParts {
  const out: Record<string, string> = {};
  for (const p of formatOf(zone).formatToParts(at)) out[p.type] = p.value;
  return {
    year: out.year ?? "",
    month: out.month ?? "",
    day: out.day ?? "",
    hour: out.hour ?? "",
    minute: out.minute ?? "",
    second: out.second ?? "",
  };
}

/** "YYYY-MM-DD HH:mm", with ":ss" when `seconds`. */
export function zonedTime(at: Date, zone: string, seconds: boolean): string {
  const p = zonedParts(at, zone);
  const t = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  return seconds ? `${t}:${p.second}` : t;
}

/** An ISO timestamp with its offset, as replies carry instants ("2029-11-28T05:05:13.328Z"). */
export const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
