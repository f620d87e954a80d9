// The small load balancer of `npm run cluster` (docs/deploy.md, "Failover"): one address in front of N server
// nodes on this machine, carrying HTTP requests and websocket upgrades (/websocket, /ws) round-robin to the
// nodes whose GET /readyz answers 200, without sticky sessions. A node that refuses the connection (it was
// killed, or is starting) is taken out at once and the request or upgrade goes to the next node: nothing of it
// had reached the dead one, so it is carried out once. A request that a node dies while answering is answered
// 502 (it may or may not have been carried out), and one that no node can take 503 with Retry-After.
// HTTP goes through http-proxy; upgrades are forwarded here with node:net, since http-proxy ends the client's
// socket when its node refuses and so cannot try another.
import http from "node:http";
import net from "node:net";
import { PassThrough } from "node:stream";
import httpProxy from "http-proxy";

/** @typedef {{ port: number, ready: boolean }} BalancedNode */

const FORWARDED = ["x-forwarded-for", "x-forwarded-port", "x-forwarded-proto"];
const NO_NODE = JSON.stringify({ code: 503, data: null, msg: "No server node is ready; try again in a moment" });
const NODE_LOST = JSON.stringify({
  code: 502,
  data: null,
  msg: "The server node stopped while answering; the request may or may not have been carried out",
});

/**
 * Starts the balancer on `port` (loopback unless `host` says otherwise) in front of `nodes` (on 127.0.0.1),
 * whose `ready` it keeps: polled from /readyz every `pollMs`, turned off at once when a node refuses a
 * connection; `onChange` hears each change. `markDown` is for the caller who knows a node has gone.
 * @param {{ port: number, host?: string, nodes: BalancedNode[], pollMs?: number, onChange?: (node: BalancedNode) => void }} options
 */
export function startBalancer({ port, host = "127.0.0.1", nodes, pollMs = 500, onChange = () => {} }) {
  const nodeHost = "127.0.0.1";
  const setReady = (node, ready) => {
    if (node.ready === ready) return;
    node.ready = ready;
    onChange(node);
  };

  const isReady = async (node) => {
    try {
      const res = await fetch(`http://${nodeHost}:${node.port}/readyz`, { signal: AbortSignal.timeout(1000) });
      await res.body?.cancel();
      return res.ok;
    } catch {
      return false;
    }
  };
  let polling = false;
  const poll = setInterval(async () => {
    if (polling) return;
    polling = true;
    try {
      const states = await Promise.all(nodes.map(isReady));
      nodes.forEach((node, i) => setReady(node, states[i]));
    } finally {
      polling = false;
    }
  }, pollMs);

  let next = 0;
  /** The next ready node not yet tried for this request, round-robin. */
  const pick = (tried) => {
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[(next + i) % nodes.length];
      if (node.ready && !tried.has(node)) {
        next = (next + i + 1) % nodes.length;
        return node;
      }
    }
    return null;
  };

  const answer = (res, status, body) => {
    if (res.headersSent) return res.destroy();
    res.writeHead(status, { "content-type": "application/json", ...(status === 503 ? { "retry-after": "1" } : {}) });
    res.end(body);
  };

  // The request body is held back until the node's connection is up (http-proxy pipes `buffer` into it), so a
  // refused connection leaves the body unread and the request can go to the next node whole.
  const proxy = httpProxy.createProxyServer({ xfwd: true });
  /** @type {WeakSet<http.IncomingMessage>} requests whose node connection came up */
  const connected = new WeakSet();
  proxy.on("proxyReq", (proxyReq, req, _res, options) => {
    const start = () => {
      connected.add(req);
      if (options.buffer) req.pipe(options.buffer);
    };
    if (proxyReq.socket.connecting) proxyReq.socket.once("connect", start);
    else start();
  });

  const web = (req, res, tried = new Set()) => {
    const node = pick(tried);
    if (!node) return answer(res, 503, NO_NODE);
    tried.add(node);
    // http-proxy emits proxyReq only without `Expect: 100-continue`; such a request is piped at once.
    const buffer = req.headers.expect === undefined ? new PassThrough() : undefined;
    // http-proxy appends this hop to the X-Forwarded-* headers in place: put them back before another try.
    const forwarded = FORWARDED.map((name) => [name, req.headers[name]]);
    proxy.web(req, res, { target: `http://${nodeHost}:${node.port}`, buffer }, () => {
      if (buffer && !connected.has(req) && !req.destroyed) {
        setReady(node, false);
        for (const [name, value] of forwarded) {
          if (value === undefined) delete req.headers[name];
          else req.headers[name] = value;
        }
        return web(req, res, tried);
      }
      answer(res, 502, NODE_LOST);
    });
  };

  const upgrade = (req, socket, head, tried = new Set()) => {
    if (socket.destroyed) return;
    const node = pick(tried);
    if (!node) {
      socket.end(
        "HTTP/1.1 503 Service Unavailable\r\nretry-after: 1\r\nconnection: close\r\ncontent-length: 0\r\n\r\n",
      );
      return;
    }
    tried.add(node);
    const upstream = net.connect(node.port, nodeHost);
    // The client going away (or failing) while its node is being reached ends that attempt.
    const gone = () => upstream.destroy();
    socket.once("close", gone);
    socket.on("error", gone);
    const refused = () => {
      socket.off("close", gone);
      socket.off("error", gone);
      setReady(node, false);
      upgrade(req, socket, head, tried);
    };
    upstream.once("error", refused);
    upstream.once("connect", () => {
      upstream.off("error", refused);
      // From here each side is ended after the other's last bytes (not destroyed, which would drop them).
      socket.off("close", gone);
      socket.once("close", () => upstream.end());
      upstream.once("close", () => socket.end());
      upstream.on("error", () => socket.destroy());
      upstream.setNoDelay(true);
      socket.setNoDelay(true);
      upstream.write(upgradeHead(req));
      if (head.length > 0) upstream.write(head);
      // A killed node's FIN (or reset) reaches the client, which reconnects.
      socket.pipe(upstream);
      upstream.pipe(socket);
    });
  };

  const server = http.createServer(web);
  server.on("upgrade", upgrade);
  const listening = new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve(undefined));
  });
  return {
    server,
    listening,
    markDown: (node) => setReady(node, false),
    /** Stops polling and listening; connections already carried end when their nodes close them. */
    close() {
      clearInterval(poll);
      server.close();
    },
  };
}

/** The upgrade request as the node must read it: the client's, with this hop in X-Forwarded-For/-Port/-Proto. */
function upgradeHead(req) {
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  const forwarded = { for: req.socket.remoteAddress ?? "", port: String(req.socket.localPort ?? ""), proto: "http" };
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const kind = /^x-forwarded-(for|port|proto)$/i.exec(name)?.[1]?.toLowerCase();
    if (kind) forwarded[kind] = `${req.rawHeaders[i + 1]},${forwarded[kind]}`;
    else lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
  }
  for (const [kind, value] of Object.entries(forwarded)) lines.push(`x-forwarded-${kind}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n`;
}
