import type { AddressInfo } from "node:net";
import { startImTest, type ImTest } from "../../../test/im-harness";
import { decodeMessageBody, decodeMeta } from "../proto/decode";
import { provisionFrame, pullFrame, WireClient } from "./wire-client";

/** The test app listening on a loopback port, with helpers for protocol clients logged in as new users. */
export interface GatewayTest {
  im: ImTest;
  url: string;
  appKey: string;
  user(prefix?: string): Promise<{ name: string; token: string }>;
  /** A socket logged in as `name` on `resource`. */
  login(name: string, token: string, resource?: string): Promise<WireClient>;
  /**
   * Pulls a queue until its last batch, acknowledging each batch by the next pull, and with
   * `acknowledgeLast` the last one too (as the client does); the texts of its messages in order (a group
   * queue also carries the group's events).
   */
  drain(
    c: WireClient,
    queue: { name: string; domain: string },
    opts?: { acknowledgeLast?: boolean },
  ): Promise<string[]>;
  close(): Promise<void>;
}

export async function startGatewayTest(
  env: Record<string, string> = {},
  options: Parameters<typeof startImTest>[1] = {},
): Promise<GatewayTest> {
  const im = await startImTest(env, options);
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
    async drain(c, queue, opts = {}) {
      const out: string[] = [];
      const reply = () =>
        c.take((f) => f.sync !== undefined && f.sync.metaId === 0n && f.sync.queue?.name === queue.name);
      let key: bigint | undefined;
      for (;;) {
        c.send(pullFrame(appKey, queue, key));
        const b = await reply();
        const metas = (b.sync?.metas ?? []).map((m) => decodeMeta(m)).filter((m) => m.ns === 1);
        out.push(...metas.map((m) => decodeMessageBody(m.payload).contents[0]?.text ?? ""));
        key = b.sync?.nextKey ?? key;
        if (!b.sync?.isLast) continue;
        if (opts.acknowledgeLast && b.sync.nextKey !== null) {
          c.send(pullFrame(appKey, queue, key));
          await reply();
        }
        return out;
      }
    },
    close: () => im.close(),
  };
}
