import { invalid } from "../errors.js";

/** Parameter checks shared by the API modules: each throws the spec's 'Invalid parameter' error. */

export const isStr = (v: unknown): v is string => typeof v === "string" && v !== "";
export const isNum = (v: unknown): v is number => typeof v === "number" && !Number.isNaN(v);

/** A required non-empty string: 'Invalid parameter: "<name>"'. */
export function needStr(v: unknown, name: string): string {
  if (!isStr(v)) throw invalid(`Invalid parameter: "${name}"`);
  return v;
}

export function needNum(v: unknown, name: string): number {
  if (!isNum(v)) throw invalid(`Invalid parameter: "${name}"`);
  return v;
}

export function needArray<T = unknown>(v: unknown, name: string, nonEmpty = false): T[] {
  if (!Array.isArray(v) || (nonEmpty && v.length === 0)) throw invalid(`Invalid parameter: "${name}"`);
  return v as T[];
}

export function needBool(v: unknown, name: string): boolean {
  if (typeof v !== "boolean") throw invalid(`Invalid parameter: "${name}"`);
  return v;
}

/** The options object itself must be given. */
export function needObj<T extends object>(v: T | undefined | null, name = "options"): T {
  if (!v || typeof v !== "object") throw invalid(`Invalid parameter: "${name}"`);
  return v;
}

/** A name or a list of names, for paths like `users/{a,b}`. */
export function nameList(v: unknown, name: string): string {
  if (isStr(v)) return v;
  if (Array.isArray(v) && v.length > 0 && v.every(isStr)) return v.join(",");
  throw invalid(`Invalid parameter: "${name}"`);
}

export const enc = encodeURIComponent;

/** A REST reply as the API methods resolve it: the server's JSON plus `type: 0`, `data` per method. */
export type RestReply<T = unknown> = { type: number; data?: T; [k: string]: unknown };
