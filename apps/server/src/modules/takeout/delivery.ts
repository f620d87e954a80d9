import type { HoursRuleCol } from "./tables";

/** The shop's rules of place and time: the delivery radius and area, the opening hours. */

/** Metres between two points (haversine). */
export function distanceM(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const r = 6_371_000;
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * r * Math.asin(Math.sqrt(h));
}

/** Whether a point lies inside a polygon of [lat, lng] corners (ray casting). */
export function insidePolygon(p: { lat: number; lng: number }, polygon: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [yi, xi] = polygon[i] ?? [0, 0];
    const [yj, xj] = polygon[j] ?? [0, 0];
    if (yi > p.lat !== yj > p.lat && p.lng < ((xj - xi) * (p.lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether the hours (Beijing time, 1 = Monday) cover an instant; a rule whose end is before its start runs past midnight. */
export function openAt(hours: HoursRuleCol[], at: Date): boolean {
  const local = new Date(at.getTime() + 8 * 3600_000);
  const day = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
  const prevDay = day === 1 ? 7 : day - 1;
  const minutes = local.getUTCHours() * 60 + local.getUTCMinutes();
  const m = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
  return hours.some((h) => {
    const from = m(h.from);
    const to = m(h.to);
    if (from < to) return h.days.includes(day) && minutes >= from && minutes < to;
    return (h.days.includes(day) && minutes >= from) || (h.days.includes(prevDay) && minutes < to);
  });
}
