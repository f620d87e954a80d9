import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { cardKeys, maskNumber } from "./crypto";

/** numberHash("8800123456789012") under a key of 32 bytes of 7, as the first release computed it. */
const FIXED_HASH = "l9ZjWiWcSlVwKDhSW4S81G8y";

describe("card crypto", () => {
  const keys = cardKeys(randomBytes(32));

  it("seals and unseals; each seal is different; a tampered seal fails", () => {
    const a = keys.seal("8800123456789012", "Q7WX-9KD2");
    const b = keys.seal("8800123456789012", "Q7WX-9KD2");
    expect(a).not.toBe(b);
    expect(keys.unseal(a)).toEqual({ number: "8800123456789012", secret: "Q7WX-9KD2" });
    const raw = Buffer.from(a, "base64");
    raw[raw.length - 1] = (raw[raw.length - 1] ?? 0) ^ 1;
    expect(() => keys.unseal(raw.toString("base64"))).toThrow();
  });

  it("hashes numbers with the app key: same number same hash, another key another hash", () => {
    expect(keys.numberHash("A-1")).toBe(keys.numberHash("A-1"));
    expect(keys.numberHash("A-1")).not.toBe(keys.numberHash("A-2"));
    expect(cardKeys(randomBytes(32)).numberHash("A-1")).not.toBe(keys.numberHash("A-1"));
  });

  it("keeps the hash that codes already stored carry (a fixed key gives a fixed value)", () => {
    // Stored number_hash values dedupe future imports: a change here would let a stored code in again.
    expect(cardKeys(Buffer.alloc(32, 7)).numberHash("8800123456789012")).toBe(FIXED_HASH);
  });

  it("masks at most a quarter of a number at each end", () => {
    expect(maskNumber("123")).toBe("***");
    expect(maskNumber("12345678")).toBe("12****78");
    expect(maskNumber("8800123456789012")).toBe("8800********9012");
    expect(maskNumber("88001234567890123456")).toBe("8800************3456");
  });
});
