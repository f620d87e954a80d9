import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/**
 * Requests the server makes to addresses its users chose (open-API result callbacks, the developer
 * portal's callback tester): they must never reach this machine, its private networks or the cloud's
 * metadata service (server-side request forgery, OWASP ASVS 12.6 / 13.x).
 *
 * Two rules make that hold:
 * - an address is classified by ipaddr.js's range tables after every IPv6 form that carries an IPv4
 *   address is decoded (IPv4-mapped `::ffff:127.0.0.1` = `::ffff:7f00:1`, IPv4-translated, the deprecated
 *   IPv4-compatible `::127.0.0.1`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`), and only
 *   global unicast passes: IPv4 outside every special range, IPv6 inside 2000::/3 and outside every
 *   special range;
 * - the name is resolved once, inside the connection (a custom `lookup` on the request), and the socket
 *   connects to exactly the addresses that were checked, so a DNS answer that changes between check and
 *   connect (rebinding) cannot slip a private address in.
 */

/** Why an address was refused, or "unicast" when it is a public unicast address. */
export function addressRange(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "");
  // Zone ids (fe80::1%eth0) only exist on link-local addresses; refuse them without parsing further.
  if (bare.includes("%")) return "linkLocal";
  // Only the forms sockets are given (dotted quad, IPv6): "1.2.3" or "0x7f.1" would be read by ipaddr.js
  // the inet_aton way, and a check should not depend on such readings. The URL parser and the resolver
  // both produce the plain forms.
  if (isIP(bare) === 0) return "invalid";
  return rangeOf(ipaddr.parse(bare));
}

/** Whether an outgoing request may connect to this address. */
export function isPublicAddress(address: string): boolean {
  return addressRange(address) === "unicast";
}

/** Only 2000::/3 is allocated for global unicast; everything else in IPv6 is special or unassigned. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** The well-known NAT64 prefix (RFC 6052): the last 32 bits are the IPv4 destination. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

function v4FromParts(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function rangeOf(addr: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (addr.kind() === "ipv4") return (addr as ipaddr.IPv4).range();
  const v6 = addr as ipaddr.IPv6;
  const p = v6.parts;
  const range = v6.range();
  const embedded = (inner: ipaddr.IPv4, form: string): string => {
    const r = inner.range();
    return r === "unicast" ? "unicast" : `${r} (${form} of ${inner.toString()})`;
  };
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (translated): the socket talks IPv4 to a.b.c.d.
  if (range === "ipv4Mapped" || range === "rfc6145") return embedded(v4FromParts(p[6] ?? 0, p[7] ?? 0), "IPv4-mapped");
  // ::a.b.c.d (IPv4-compatible, deprecated by RFC 4291 but still routed by some stacks); :: and ::1 are their own ranges.
  if (range !== "unspecified" && range !== "loopback" && p.slice(0, 6).every((x) => x === 0)) {
    return embedded(v4FromParts(p[6] ?? 0, p[7] ?? 0), "IPv4-compatible");
  }
  // NAT64: the translator forwards to the embedded IPv4 address. The local-use prefix 64:ff9b:1::/48
  // (RFC 8215) is an operator's own network: refused outright.
  if (range === "rfc6052") {
    return v6.match(NAT64_WELL_KNOWN) ? embedded(v4FromParts(p[6] ?? 0, p[7] ?? 0), "NAT64") : "rfc6052";
  }
  // 6to4 (2002:aabb:ccdd::/48 tunnels to a.b.c.d): public only when the relay's IPv4 address is.
  if (range === "6to4") return embedded(v4FromParts(p[1] ?? 0, p[2] ?? 0), "6to4");
  // Teredo: 2001:0:SSSS:SSSS:flags:port:CCCC:CCCC, the server's IPv4 plainly, the client's inverted.
  if (range === "teredo") {
    const server = embedded(v4FromParts(p[2] ?? 0, p[3] ?? 0), "Teredo server");
    if (server !== "unicast") return server;
    return embedded(v4FromParts(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff), "Teredo client");
  }
  if (range !== "unicast") return range;
  return v6.match(GLOBAL_UNICAST_V6) ? "unicast" : "unassigned";
}

/** An outgoing request refused because of where it would go. */
export class RefusedDestination extends Error {
  constructor(detail: string) {
    super(`refused: the callback URL points to a private network (${detail})`);
    this.name = "RefusedDestination";
  }
}

/**
 * A `lookup` for net/http that resolves the name once and hands the socket only addresses that passed
 * the check; any refused address among the answers refuses the whole name (an attacker's record set
 * mixing a public and a private address must not get a second chance on retry).
 */
export function checkedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(
      hostname,
      {
        all: true,
        ...(options.family !== undefined && { family: options.family }),
        ...(options.hints !== undefined && { hints: options.hints }),
      },
      (err, addresses: LookupAddress[]) => {
        if (err) return callback(err, "", 0);
        if (addresses.length === 0) {
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
        }
        if (!allowPrivateNetworks) {
          for (const a of addresses) {
            const range = addressRange(a.address);
            if (range !== "unicast") {
              return callback(new RefusedDestination(`${hostname} resolves to ${a.address}, ${range}`), "", 0);
            }
          }
        }
        if (options.all) return callback(null, addresses);
        const first = addresses[0] as LookupAddress;
        return callback(null, first.address, first.family);
      },
    );
  };
}

export interface OutboundReply {
  /** The HTTP status the receiver answered. Its body is read and thrown away, never shown or stored. */
  status: number;
}

/** Sends one POST to a user-chosen URL (see above); rejects with RefusedDestination for private addresses. */
export type OutboundPost = (
  url: string,
  init: { headers: Record<string, string>; body: string; timeoutMs: number },
) => Promise<OutboundReply>;

/**
 * The POST every callback goes through: http or https only, no redirects followed, the destination
 * checked (literal addresses here, names in checkedLookup at connect time), a fresh connection each time
 * (a pooled socket would skip the lookup), and the reply's body drained unread.
 * `allowPrivateNetworks` (CALLBACK_ALLOW_PRIVATE_NETWORKS) lets local tests call a listener on loopback.
 */
export function outboundPost({ allowPrivateNetworks }: { allowPrivateNetworks: boolean }): OutboundPost {
  const lookup = checkedLookup(allowPrivateNetworks);
  return (url, init) =>
    new Promise<OutboundReply>((resolve, reject) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return reject(new Error("the callback URL is not a valid URL"));
      }
      if (target.protocol !== "http:" && target.protocol !== "https:") {
        return reject(new Error("the callback URL must be http or https"));
      }
      // A literal address never reaches `lookup` (net connects to it directly, by the same isIP test):
      // check it here. The URL parser has already turned 2130706433, 0x7f.1 and friends into dotted decimal.
      const host = target.hostname.replace(/^\[|\]$/g, "");
      if (!allowPrivateNetworks && isIP(host) !== 0) {
        const range = addressRange(host);
        if (range !== "unicast") return reject(new RefusedDestination(`${host}, ${range}`));
      }
      const send = target.protocol === "https:" ? https.request : http.request;
      const req = send(
        target,
        {
          method: "POST",
          headers: { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) },
          lookup,
          agent: false,
          signal: AbortSignal.timeout(init.timeoutMs),
        },
        (res) => {
          res.resume();
          res.on("error", () => undefined);
          resolve({ status: res.statusCode ?? 0 });
        },
      );
      req.on("error", (err) => reject(err));
      req.end(init.body);
    });
}
