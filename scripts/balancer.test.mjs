// The balancer of `npm run cluster` (scripts/balancer.mjs) in front of two small HTTP + websocket servers that
// stand in for nodes: round-robin over the ready ones, a node that is down skipped for requests with a body and
// for websocket upgrades alike (nothing of them reaches it, so they are carried out once), the client's
// address forwarded, and 503 when no node is left. The real nodes behind it: apps/server/src/tools/drain.scaleout.test.ts.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import { startBalancer } from "./balancer.mjs";

/** A node: /readyz, POST /echo answering who it is with the body and X-Forwarded-For it got, and a websocket. */
async function fakeNode(name) {
  const server = http.createServer((req, res) => {
    if (req.url === "/readyz") return res.end("ok");
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ name, body: Buffer.concat(chunks).toString(), xff: req.headers["x-forwarded-for"] }));
    });
  });
  const wss = new WebSocketServer({ server });
  wss.on("connection", (ws, req) => ws.send(`${name} ${req.headers["x-forwarded-for"]}`));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return {
    name,
    port: server.address().port,
    /** Stops listening and drops every connection, as a killed process does. */
    async kill() {
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

let a;
let b;
let balancer;
let base;
const nodes = [];

beforeAll(async () => {
  a = await fakeNode("a");
  b = await fakeNode("b");
  // Both known ready, and no poll during the test: what it shows is the balancer's own reaction to a refusal.
  nodes.push({ port: a.port, ready: true }, { port: b.port, ready: true });
  balancer = startBalancer({ port: 0, nodes, pollMs: 600_000 });
  await balancer.listening;
  base = `http://127.0.0.1:${balancer.server.address().port}`;
});

afterAll(async () => {
  balancer?.close();
  await b?.kill();
});

const post = async (body) => {
  const res = await fetch(`${base}/echo`, { method: "POST", body });
  return { status: res.status, ...(await res.json()) };
};

const firstMessage = (url) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once("message", (data) => {
      resolve(String(data));
      ws.close();
    });
    ws.once("error", reject);
  });

describe("the cluster's balancer", () => {
  it("spreads requests over the ready nodes and forwards the client's address", async () => {
    const answers = [await post("one"), await post("two")];
    expect(answers.map((r) => r.name).sort()).toEqual(["a", "b"]);
    expect(answers.map((r) => [r.status, r.xff])).toEqual([
      [200, "127.0.0.1"],
      [200, "127.0.0.1"],
    ]);
    expect(answers.map((r) => r.body)).toEqual(["one", "two"]);
  });

  it("carries a request with its body and a websocket to the other node when one is down", async () => {
    await a.kill();
    // Whichever node round-robin picks first, every call lands on b, whole.
    const answers = [await post("after-1"), await post("after-2"), await post("after-3")];
    expect(answers.map((r) => [r.status, r.name, r.body, r.xff])).toEqual([
      [200, "b", "after-1", "127.0.0.1"],
      [200, "b", "after-2", "127.0.0.1"],
      [200, "b", "after-3", "127.0.0.1"],
    ]);
    expect(nodes[0].ready).toBe(false);
    nodes[0].ready = true; // as if it had not refused yet, for the upgrades too
    const greetings = [await firstMessage(`${base.replace("http", "ws")}/websocket`)];
    greetings.push(await firstMessage(`${base.replace("http", "ws")}/websocket`));
    expect(greetings).toEqual(["b 127.0.0.1", "b 127.0.0.1"]);
  });

  it("answers 503 with Retry-After when no node is left", async () => {
    await b.kill();
    b = undefined;
    const res = await fetch(`${base}/echo`, { method: "POST", body: "x" });
    expect([res.status, res.headers.get("retry-after"), (await res.json()).msg]).toEqual([
      503,
      "1",
      "No server node is ready; try again in a moment",
    ]);
  });
});
