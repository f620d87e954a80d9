import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addressRange, checkedLookup, isPublicAddress, outboundPost, RefusedDestination } from "./ssrf";

describe("the destination classifier", () => {
  const refused: Record<string, string[]> = {
    "IPv4 special ranges": [
      "127.0.0.1",
      "127.255.255.254",
      "10.2.3.4",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "239.255.255.250",
      "192.0.2.1",
      "198.51.100.7",
      "203.0.113.5",
      "198.18.0.1",
      "240.0.0.1",
    ],
    "IPv6 special ranges": [
      "::1",
      "::",
      "fe80::1",
      "fe80::1%eth0",
      "fc00::1",
      "fd12:3456::1",
      "ff02::1",
      "2001:db8::1",
      "fec0::1",
      "100::1",
      "4000::1",
    ],
    "IPv4-mapped": [
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "[::ffff:7f00:1]",
      "::FFFF:7F00:0001",
      "::ffff:10.0.0.1",
      "::ffff:a9fe:a9fe",
      "::ffff:0:127.0.0.1",
    ],
    "IPv4-compatible": ["::127.0.0.1", "::7f00:1", "::10.0.0.1", "::a9fe:a9fe"],
    NAT64: [
      "64:ff9b::127.0.0.1",
      "64:ff9b::7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b::192.168.0.1",
      "64:ff9b:1::8.8.8.8",
    ],
    "6to4 of a private address": ["2002:7f00:1::1", "2002:c0a8:101::1", "2002:a00:1::1"],
    // Server 65.54.227.120 (public), client 10.0.0.1 stored inverted as f5ff:fffe.
    "Teredo of a private address": ["2001:0:4136:e378:8000:63bf:f5ff:fffe", "2001:0:7f00:1::"],
    "not an address": ["localhost", "example.com", "1.2.3", ""],
  };
  for (const [form, addresses] of Object.entries(refused)) {
    it(`refuses ${form}`, () => {
      for (const a of addresses) expect(isPublicAddress(a), `${a}: ${addressRange(a)}`).toBe(false);
    });
  }

  it("passes public unicast addresses, also inside the IPv6 forms that carry a public IPv4 address", () => {
    for (const a of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "100.128.0.1",
      "2606:4700:4700::1111",
      "2a00:1450:4001::200e",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
      "2002:808:808::1",
      "2001:0:4136:e378:8000:63bf:f7f7:f7f7",
    ]) {
      expect(isPublicAddress(a), `${a}: ${addressRange(a)}`).toBe(true);
    }
  });

  it("names the range and the embedded address it found", () => {
    expect(addressRange("::ffff:7f00:1")).toBe("loopback (IPv4-mapped of 127.0.0.1)");
    expect(addressRange("64:ff9b::a9fe:a9fe")).toBe("linkLocal (NAT64 of 169.254.169.254)");
    expect(addressRange("2001:0:4136:e378:8000:63bf:f5ff:fffe")).toBe("private (Teredo client of 10.0.0.1)");
    expect(addressRange("100.64.0.1")).toBe("carrierGradeNat");
  });
});

describe("the checked, pinned POST", () => {
  let server: Server;
  let port: number;
  const received: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/plain" }).end("secret internal page");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });
  const body = { headers: { "content-type": "application/json" }, body: "{}", timeoutMs: 5_000 };

  it("refuses a listener on 127.0.0.1 under every spelling, and never connects", async () => {
    const strict = outboundPost({ allowPrivateNetworks: false });
    const before = received.length;
    for (const host of [
      "127.0.0.1",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "2130706433",
      "0x7f.1",
      "127.1",
      "localhost",
      "[::1]",
    ]) {
      await expect(strict(`http://${host}:${port}/probe`, body), host).rejects.toBeInstanceOf(RefusedDestination);
    }
    expect(received.length).toBe(before);
  });

  it("refuses other schemes and answers with the status only when private networks are allowed (local tests)", async () => {
    const strict = outboundPost({ allowPrivateNetworks: false });
    await expect(strict(`file:///etc/passwd`, body)).rejects.toThrow("http or https");
    const local = outboundPost({ allowPrivateNetworks: true });
    const reply = await local(`http://[::ffff:127.0.0.1]:${port}/allowed`, body);
    expect(reply).toEqual({ status: 200 });
    expect(received).toContain("/allowed");
  });

  it("resolves a name once and hands the socket only the checked addresses", async () => {
    const lookup = checkedLookup(false);
    const err = await new Promise<unknown>((resolve) => lookup("localhost", { all: true }, (e) => resolve(e)));
    expect(err).toBeInstanceOf(RefusedDestination);
    expect(String(err)).toMatch(/localhost resolves to (127\.0\.0\.1|::1), loopback/);
    const allowed = await new Promise<unknown>((resolve) =>
      checkedLookup(true)("localhost", { all: true }, (_e, addresses) => resolve(addresses)),
    );
    expect(allowed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ address: expect.stringMatching(/^(127\.0\.0\.1|::1)$/) as unknown }),
      ]),
    );
  });
});
