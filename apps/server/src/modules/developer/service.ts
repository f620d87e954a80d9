import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { CallbackTestReply, DeveloperExamples } from "@tessera/contracts";
import type { Db, Executor } from "../../db/tx";
import type { Actor } from "../../platform/auth/actor";
import { tenantOf } from "../../platform/auth/guard";
import type { Clock } from "../../platform/clock";
import { invalid } from "../../platform/http/errors";
import { outboundPost, type OutboundPost } from "../../platform/http/ssrf";

// Beside this file in the sources; beside the bundle (scripts/build-server.mjs copies them) when built.
const EXAMPLES_DIR = existsSync(path.join(import.meta.dirname, "examples"))
  ? path.join(import.meta.dirname, "examples")
  : path.join(import.meta.dirname, "developer-examples");

/** The examples the portal shows, each runnable as is (developer.test.ts runs them). */
export const EXAMPLES = [
  { language: "Node.js", file: "sign.mjs", run: "node sign.mjs" },
  { language: "Python", file: "sign.py", run: "python3 sign.py" },
  { language: "Shell (OpenSSL)", file: "sign.sh", run: "sh sign.sh" },
] as const;

/** The worked example of the API docs (modules/openapi/routes.ts SIGNING). */
export const WORKED = {
  secret: "s3cr3t",
  method: "POST",
  pathWithQuery: "/api/card-api/openapi/order",
  timestamp: "1795449600",
  nonce: "n0nce-0001",
  body: JSON.stringify({ goodsId: "1", quantity: 1, orderNo: "ORDER-0001" }),
};

export interface DeveloperDeps {
  db: Db;
  clock: Clock;
  canonicalString(
    method: string,
    pathWithQuery: string,
    timestamp: string,
    nonce: string,
    body: Buffer | string,
  ): string;
  sign(secret: string, canonical: string): string;
  /** The merchant's callback URL and API secret (onboarding's API credentials). */
  callbackTarget(db: Executor, merchantId: number): Promise<{ url: string; secret: string } | undefined>;
  /** CALLBACK_ALLOW_PRIVATE_NETWORKS: local tests may point the callback URL at loopback. */
  allowPrivateNetworks: boolean;
  /** How the sample is sent; default: platform/http/ssrf.ts's checked, pinned POST (as real callbacks). */
  post?: OutboundPost;
}

/**
 * The developer portal's server side: the signing examples (the same files a test runs, with the worked
 * example's values signed by the server's own code) and the callback tester, which sends a signed sample
 * result callback to the merchant's own callback URL exactly as real callbacks are sent and shows the
 * receiver's status and the time it took. Never the receiver's body: the tester would otherwise read any
 * page the server can reach for whoever sets the URL. The request console signs in the browser with the
 * merchant's own key; it needs nothing here.
 */
export class DeveloperService {
  private readonly post: OutboundPost;
  constructor(private readonly deps: DeveloperDeps) {
    this.post = deps.post ?? outboundPost({ allowPrivateNetworks: deps.allowPrivateNetworks });
  }

  async examples(): Promise<DeveloperExamples> {
    const examples = await Promise.all(
      EXAMPLES.map(async (e) => ({ ...e, source: await readFile(path.join(EXAMPLES_DIR, e.file), "utf8") })),
    );
    const bodyHash = createHash("sha256").update(WORKED.body).digest("hex");
    const canonical = this.deps.canonicalString(
      WORKED.method,
      WORKED.pathWithQuery,
      WORKED.timestamp,
      WORKED.nonce,
      WORKED.body,
    );
    return {
      examples,
      worked: { ...WORKED, bodyHash, canonical, signature: this.deps.sign(WORKED.secret, canonical) },
    };
  }

  async callbackTest(actor: Actor): Promise<CallbackTestReply> {
    const merchantId = tenantOf(actor);
    const target = await this.deps.callbackTarget(this.deps.db, merchantId);
    if (!target) throw invalid("developer.noCallbackUrl");
    const now = this.deps.clock.now();
    const timestamp = String(Math.floor(now.getTime() / 1000));
    const body = JSON.stringify({
      event: "order.result",
      test: true,
      order: {
        id: "0",
        orderNo: "TEST-CALLBACK",
        goodsId: "0",
        quantity: 1,
        amount: { amount: 100, currency: "CNY" },
        state: "success",
        upstreamChannelId: null,
        failReason: null,
        refunded: false,
        finishedAt: now.toISOString(),
      },
    });
    const headers = {
      "content-type": "application/json",
      "x-event-id": `test-${now.getTime()}`,
      "x-timestamp": timestamp,
      "x-signature": this.deps.sign(target.secret, `${timestamp}\n${body}`),
    };
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = (await this.post(target.url, { headers, body, timeoutMs: 10_000 })).status;
    } catch (err) {
      error = err instanceof Error ? err.message.slice(0, 300) : "send failed";
    }
    return { url: target.url, sent: { headers, body }, status, elapsedMs: Date.now() - started, error };
  }
}
