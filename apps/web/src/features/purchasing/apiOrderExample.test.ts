import { execFileSync } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { orderReq } from "@tessera/contracts";
import { exampleOrderBody, exampleOrderRequest, OPEN_API_ORDER_PATH } from "./apiOrderExample";

describe("the API purchase table's request example", () => {
  it("a card goods' body is a valid order request without a top-up account; a top-up's names one", () => {
    const card = JSON.parse(exampleOrderBody({ goodsId: "12", fromStock: true }, "API-0001")) as Record<
      string,
      unknown
    >;
    expect(card).toEqual({ goodsId: "12", quantity: 1, orderNo: "API-0001" });
    expect(orderReq.safeParse(card).success).toBe(true);
    const topUp = JSON.parse(exampleOrderBody({ goodsId: "13", fromStock: false }, "API-0002")) as Record<
      string,
      unknown
    >;
    expect(topUp.topUpAccount).toBe("13800000000");
    expect(orderReq.safeParse(topUp).success).toBe(true);
  });

  it("the shell example computes the signature the open API checks", () => {
    const script = exampleOrderRequest(
      { goodsId: "12", fromStock: true },
      { origin: "https://example.test", appKey: "AK123", orderNo: "API-0001" },
    );
    expect(script).toContain("APP_KEY='AK123'");
    expect(script).toContain(`'https://example.test${OPEN_API_ORDER_PATH}'`);
    // Run the signing lines with a fixed timestamp, nonce and secret, and compare with the server's recipe.
    const lines = script.split("\n");
    const signing = [
      "SECRET='s3cr3t'",
      lines.find((l) => l.startsWith("BODY=")) ?? "",
      "TS=1795449600; NONCE=n0nce-0001",
      lines.find((l) => l.startsWith("SIG=")) ?? "",
      'printf %s "$SIG"',
    ].join("\n");
    const sig = execFileSync("bash", ["-c", signing]).toString();
    const body = exampleOrderBody({ goodsId: "12", fromStock: true }, "API-0001");
    const canonical = [
      "POST",
      OPEN_API_ORDER_PATH,
      "1795449600",
      "n0nce-0001",
      createHash("sha256").update(body).digest("hex"),
    ].join("\n");
    expect(sig).toBe(createHmac("sha256", "s3cr3t").update(canonical).digest("hex"));
  });
});
