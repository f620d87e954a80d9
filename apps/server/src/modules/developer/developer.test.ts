import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { CallbackTestReply, DeveloperExamples } from "@tessera/contracts";
import { describe, expect, it } from "vitest";
import { registerMerchant, STRONG_PASSWORD, type TestApp } from "../../../test/harness";
import { useTestApp } from "../../../test/kit/use-test-app";
import { registerOperator } from "../../../test/operators";

const t = useTestApp({ CALLBACK_ALLOW_PRIVATE_NETWORKS: "true" });

/** Verifies the merchant, has an operator grant it API access, and returns its API secret. */
async function grantApi(app: TestApp, buyer: { token: string; merchantId: string }): Promise<{ secret: string }> {
  const ops = await registerOperator(app);
  await app.ctx.database.db
    .updateTable("merchants")
    .set({ real_name_state: "verified" })
    .where("id", "=", Number(buyer.merchantId))
    .execute();
  const applied = await app.call<{ request: { id: string } }>("POST", "/api/card-brander/api/apply", {
    token: buyer.token,
    body: { purpose: "Callbacks" },
  });
  await app.call("POST", `/api/ops/queues/apiPermission/items/${applied.body.data.request.id}/approve`, {
    token: ops.token,
  });
  return (
    await app.call<{ secret: string }>("POST", "/api/card-brander/api/view", {
      token: buyer.token,
      body: { password: STRONG_PASSWORD },
    })
  ).body.data;
}

const COMMANDS: Record<string, [string, string[]]> = {
  "sign.mjs": ["node", []],
  "sign.py": ["python3", []],
  "sign.sh": ["sh", []],
};

describe("developer portal", () => {
  it("every signing example runs and prints the signature the server computes for the worked example", async () => {
    const res = await t.call<DeveloperExamples>("GET", "/api/card-public/developer/examples");
    const { examples, worked } = res.body.data;
    expect(worked.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(worked.canonical).toBe(`POST\n/api/card-api/openapi/order\n1795449600\nn0nce-0001\n${worked.bodyHash}`);
    expect(examples.map((e) => e.language)).toEqual(["Node.js", "Python", "Shell (OpenSSL)"]);
    for (const e of examples) {
      const command = COMMANDS[e.file];
      if (!command) throw new Error(`no way to run ${e.file}`);
      const out = execFileSync(command[0], [...command[1], path.join(import.meta.dirname, "examples", e.file)], {
        encoding: "utf8",
      }).trim();
      expect(out, e.file).toBe(worked.signature);
      expect(e.source).toContain("n0nce-0001");
    }
  });

  it("the callback tester sends a signed sample callback to the merchant's URL and shows the status and time, never the body", async () => {
    const buyer = await registerMerchant(t, { orgName: "Callback Tester Ltd" });
    const none = await t.call("POST", "/api/card-user/developer/callbackTest", { token: buyer.token, lang: "en" });
    expect(none.body.msg).toBe("Please set your callback URL on the API security page first");
    const client = await grantApi(t, buyer);

    const received: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { "content-type": "text/plain" }).end("receiver-body-7f3a");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      await t.call("POST", "/api/card-brander/api/ip", {
        token: buyer.token,
        body: { ips: "", callbackUrl: `http://127.0.0.1:${port}/results` },
      });
      const tested = await t.call<CallbackTestReply>("POST", "/api/card-user/developer/callbackTest", {
        token: buyer.token,
      });
      expect(tested.body.data).toMatchObject({ url: `http://127.0.0.1:${port}/results`, status: 200, error: null });
      expect(tested.body.data.elapsedMs).toBeGreaterThanOrEqual(0);
      // The receiver's body is not echoed: the tester is no way to read pages the server can reach.
      expect(JSON.stringify(tested.body)).not.toContain("receiver-body-7f3a");
      const got = received[0];
      if (!got) throw new Error("nothing received");
      const expected = createHmac("sha256", client.secret)
        .update(`${String(got.headers["x-timestamp"])}\n${got.body}`)
        .digest("hex");
      expect(got.headers["x-signature"]).toBe(expected);
      expect(JSON.parse(got.body)).toMatchObject({
        event: "order.result",
        test: true,
        order: { orderNo: "TEST-CALLBACK" },
      });
      // Another merchant's session tests only its own URL (it has none).
      const other = await registerMerchant(t);
      expect((await t.call("POST", "/api/card-user/developer/callbackTest", { token: other.token })).status).toBe(400);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the callback tester without CALLBACK_ALLOW_PRIVATE_NETWORKS", () => {
  const strict = useTestApp();

  it("refuses a listener on 127.0.0.1 reached as http://[::ffff:127.0.0.1]:port (and its other spellings) and never contacts it", async () => {
    const buyer = await registerMerchant(strict, { orgName: "Probe Ltd" });
    await grantApi(strict, buyer);
    let contacted = 0;
    const server = createServer((_req, res) => {
      contacted++;
      res.writeHead(200, { "content-type": "text/plain" }).end("internal admin page");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      for (const url of [
        `http://[::ffff:127.0.0.1]:${port}/x`,
        `http://[::ffff:7f00:1]:${port}/x`,
        `http://[64:ff9b::7f00:1]:${port}/x`,
        `http://localhost:${port}/x`,
      ]) {
        const set = await strict.call("POST", "/api/card-brander/api/ip", {
          token: buyer.token,
          body: { ips: "", callbackUrl: url },
        });
        expect(set.body.code, url).toBe(1);
        const tested = await strict.call<CallbackTestReply>("POST", "/api/card-user/developer/callbackTest", {
          token: buyer.token,
        });
        expect(tested.status, url).toBe(200);
        expect(tested.body.data.status, url).toBeNull();
        expect(tested.body.data.error, url).toMatch(/^refused: the callback URL points to a private network/);
      }
      expect(contacted).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
