import { WebSocket } from "ws";
import {
  connection as TesseraConnection,
  message as tesseraMessage,
  statusCode as tesseraCodes,
  type WebSocketClass,
} from "../../../../../packages/im-sdk/src/index";
import { connect, loadWebsdk, restLogin, type Connection } from "./sdk";

/**
 * The two client SDKs the scenario suite runs against: the published `easemob-websdk` and our own
 * `@tessera/im-sdk` (packages/im-sdk). Both are driven through the same calls by method name, so the
 * scenario code is the same for both. IM_SCENARIO_SDK picks one (vitest.config.ts runs the suite once
 * per SDK); the default is the published client.
 */
export type SdkName = "easemob" | "tessera";

export interface ScenarioSdk {
  name: SdkName;
  /** The statusCode table (the `type` of rejections). */
  code: Record<string, number>;
  /**
   * A connection to a local server (REST base and websocket on /websocket). `deviceId` names the device,
   * for several devices of one user in one process (else the SDK's own per-process device is used).
   */
  connect(baseUrl: string, appKey: string, deviceId?: string): Connection;
  /** Logs in over REST only (the password grant), as open() does before the socket. */
  restLogin(conn: Connection, user: string, pwd: string): Promise<{ access_token: string; expires_in: number }>;
  /** message.create */
  message(options: Record<string, unknown>): Record<string, unknown>;
}

const easemob: ScenarioSdk = {
  name: "easemob",
  get code() {
    return loadWebsdk().statusCode;
  },
  connect,
  restLogin,
  message: (options) => loadWebsdk().message.create(options),
};

const tessera: ScenarioSdk = {
  name: "tessera",
  code: tesseraCodes,
  connect(baseUrl, appKey, deviceId) {
    const conn = new TesseraConnection({
      appKey,
      apiUrl: baseUrl,
      url: `${baseUrl.replace(/^http/, "ws")}/websocket`,
      WebSocket: WebSocket as unknown as WebSocketClass,
      delivery: false,
      ...(deviceId && { deviceId }),
    });
    return conn as unknown as Connection;
  },
  async restLogin(conn, user, pwd) {
    const res = await fetch(`${conn.apiUrl}/${conn.orgName}/${conn.appName}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ grant_type: "password", username: user, password: pwd, timestamp: Date.now() }),
    });
    if (res.status !== 200) throw new Error(`token call failed with ${res.status}`);
    const reply = (await res.json()) as { access_token: string; expires_in: number };
    conn.user = user;
    conn.token = reply.access_token;
    Object.assign(conn.context, { userId: user, accessToken: reply.access_token });
    return reply;
  },
  message: (options) =>
    tesseraMessage.create(options as unknown as Parameters<typeof tesseraMessage.create>[0]) as unknown as Record<
      string,
      unknown
    >,
};

export function scenarioSdk(name: string | undefined = process.env.IM_SCENARIO_SDK): ScenarioSdk {
  return name === "tessera" ? tessera : easemob;
}
