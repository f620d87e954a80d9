import type { AddressInfo } from "node:net";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { scenarioSdk, type ScenarioSdk } from "./clients";
import { sdkCall, type Connection } from "./sdk";

/**
 * A real listening server for a client SDK (the published one or ours, see clients.ts): the test app on
 * an ephemeral loopback port, with helpers that make IM users (through the REST API with the app token)
 * and log them in with the SDK.
 */
export interface Scenario {
  im: ImTest;
  baseUrl: string;
  appKey: string;
  /** The SDK under test. */
  sdk: ScenarioSdk;
  /** The SDK's statusCode table (the `type` of its rejections). */
  code: Record<string, number>;
  /** The SDK's message.create. */
  message(options: Record<string, unknown>): Record<string, unknown>;
  /** A new IM user, logged in through the SDK's own token call. */
  client(prefix?: string): Promise<Client>;
  /** Another device of an existing user (its own connection and device id), logged in over REST. */
  device(user: string, deviceId: string): Promise<Client>;
  close(): Promise<void>;
}

export interface Client {
  name: string;
  conn: Connection;
  /** Calls an SDK method by name and resolves with its reply. */
  call<T = Record<string, unknown>>(method: string, ...args: unknown[]): Promise<T>;
  /** Calls an SDK method that must fail, and resolves with its rejection ({type, message}). */
  fail(method: string, ...args: unknown[]): Promise<{ type: number; message: string }>;
}

/**
 * Logs a client in with handlers that record every event of the named kinds (`onTextMessage`,
 * `onGroupEvent`, ...), and returns the recorded events by kind, filled as they arrive.
 */
export async function openRecording<E>(c: Client, kinds: readonly string[]): Promise<Record<string, E[]>> {
  const events: Record<string, E[]> = {};
  const handlers: Record<string, (e: E) => void> = {};
  for (const kind of kinds) {
    events[kind] = [];
    handlers[kind] = (e) => events[kind]?.push(e);
  }
  (c.conn.addEventHandler as (id: string, h: unknown) => void).call(c.conn, "test", handlers);
  await c.call("open", { user: c.name, accessToken: c.conn.token });
  return events;
}

/** Waits until `what` yields a value (polling every 20 ms), or fails naming `label` after `ms`. */
export async function until<T>(what: () => T | undefined, label: string, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export async function startScenario(env: Record<string, string> = {}): Promise<Scenario> {
  const im = await startImTest(env);
  await im.t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = im.t.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
  const sdk = scenarioSdk();
  return {
    im,
    baseUrl,
    appKey,
    sdk,
    code: sdk.code,
    message: (options) => sdk.message(options),
    async client(prefix = "u") {
      const { name } = await im.user(prefix);
      return loggedIn(sdk, sdk.connect(baseUrl, appKey), name);
    },
    device: (user, deviceId) => loggedIn(sdk, sdk.connect(baseUrl, appKey, deviceId), user),
    close: () => im.close(),
  };
}

async function loggedIn(sdk: ScenarioSdk, conn: Connection, name: string): Promise<Client> {
  await sdk.restLogin(conn, name, "pw-secret-1");
  return {
    name,
    conn,
    // async: the client throws its own parameter checks synchronously; they become rejections here.
    call: async (method, ...args) => sdkCall(conn, method, ...args),
    async fail(method, ...args) {
      try {
        const value = await sdkCall(conn, method, ...args);
        throw new Error(`${method} was expected to fail but resolved with ${JSON.stringify(value)}`);
      } catch (err) {
        // The published client rejects with plain {type, message} objects, ours with ChatSdkError
        // (an Error with a numeric type); any other Error is a failure of the test itself.
        if (err instanceof Error && typeof (err as { type?: unknown }).type !== "number") throw err;
        const e = err as { type: number; message: string };
        return { type: e.type, message: e.message };
      }
    },
  };
}
