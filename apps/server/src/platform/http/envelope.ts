import type { Envelope } from "@tessera/contracts";

/** The success reply of every back-office call (spec 01 §7): `{code: 1, data, msg}`. */
export function ok<T>(data: T): Envelope<T> & { code: 1 } {
  return { code: 1, data, msg: "success" };
}
