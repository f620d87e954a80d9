import { afterAll, beforeAll } from "vitest";
import { startTestApp, type TestApp } from "../harness";

/**
 * The app of a test file (or of a `describe`): registers the `beforeAll` that starts it (`startTestApp`
 * with `env` and `options`) and the `afterAll` that closes it, and returns a handle that stands for the
 * started app. Use it where the file said `let t: TestApp` and the `beforeAll`/`afterAll` pair:
 *
 *     const t = useTestApp({ TOPUP_FEE_BP: "50" });
 *     let ops: Operator;
 *     beforeAll(async () => { ops = await registerOperator(t); });
 *
 * Hooks registered after this call run after the start and (after-hooks run in reverse order of
 * registration, Vitest's default `sequence.hooks: "stack"`) before the close, so an `afterAll` that checks
 * the ledger's invariants still sees an open database. Reading the handle before the start, or after the
 * close, throws.
 */
export function useTestApp(
  env: Record<string, string> = {},
  options: Parameters<typeof startTestApp>[1] = {},
): TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await startTestApp(env, options);
  });
  afterAll(async () => {
    const app = current;
    current = undefined;
    await app?.close();
  });
  return appHandle(() => {
    if (!current) {
      throw new Error("useTestApp: the app is used outside the tests (before its beforeAll or after its afterAll)");
    }
    return current;
  });
}

/** A TestApp that forwards every property to the app `get` returns at the time of use. */
export function appHandle(get: () => TestApp): TestApp {
  return new Proxy({} as TestApp, {
    get(_target, prop) {
      const app = get();
      const value: unknown = Reflect.get(app, prop, app);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(app) : value;
    },
    has: (_target, prop) => Reflect.has(get(), prop),
  });
}
