import { markVerified } from "../docking";
import type { TestApp } from "../harness";
import { fundSup } from "../money";
import { registerOperator } from "../operators";
import { World } from "./world";

/** The world of a server test: its calls through app.inject, its powers straight into the test database. */
export function serverWorld(t: TestApp): World {
  return new World((method, url, options) => t.call(method, url, options), {
    verify: (m) => markVerified(t, m.merchantId),
    fund: (m, amount) => fundSup(t, m, amount),
    operator: () => registerOperator(t),
  });
}
