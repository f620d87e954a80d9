import type { AddressInfo } from "node:net";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { provisionFrame, WireClient } from "./wire-client";

/** The test app listening on a loopback port, with helpers for protocol clients logged in as new users. */
export interface GatewayTest {
  im: ImTest;
  url: string;
  appKey: string;
  user(prefix?: string): Promise<{ name: string; token: string }>;
  /** A socket logged in as `name` on `resource`. */
  login(name: string, token: string, resource?: string): Promise<WireClient>;
  close(): Promise<void>;
}

export async function startGatewayTest(env: Record<string, string> = {}): Promise<GatewayTest> {
  const im = await startImTest(env);
  await im.t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = im.t.app.server.address() as AddressInfo;
  const url = `ws://127.0.0.1:${port}/websocket`;
  const appKey = `${im.t.config.im.org}#${im.t.config.im.app}`;
  return {
    im,
    url,
    appKey,
    user: (prefix) => im.user(prefix),
    async login(name, token, resource = "webim_r1") {
      const c = await WireClient.connect(url);
      c.send(provisionFrame(appKey, name, token, resource));
      const reply = await c.take((f) => f.provision !== undefined);
      if (reply.provision?.status.code !== 0) throw new Error(`login refused: ${JSON.stringify(reply.provision)}`);
      return c;
    },
    close: () => im.close(),
  };
}
