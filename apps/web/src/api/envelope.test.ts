import { describe, expect, it } from "vitest";
import { interpret, isEnvelope } from "./envelope";

const IFACE = "interface exception";

describe("interpret (spec 01 §8)", () => {
  it("code 1 on 200 hands the data to the caller", () => {
    const o = interpret<{ a: number }>(200, { code: 1, data: { a: 1 }, msg: "success" }, IFACE);
    expect(o).toEqual({ kind: "ok", result: { ok: true, code: 1, data: { a: 1 }, msg: "success", status: 200 } });
  });

  it("code -10000 is silent: no toast, no value", () => {
    expect(interpret(200, { code: -10000, data: null, msg: "x" }, IFACE)).toEqual({ kind: "silent" });
    expect(interpret(400, { code: -10000, data: null, msg: "x" }, IFACE)).toEqual({ kind: "silent" });
  });

  it("another code on 200 is a failure with the server's message", () => {
    const o = interpret(200, { code: 1004, data: null, msg: "Not found" }, IFACE);
    expect(o).toEqual({ kind: "fail", result: { ok: false, code: 1004, data: null, msg: "Not found", status: 200 } });
  });

  it("a 4xx with an envelope resolves to it, keeping data.field", () => {
    const o = interpret(400, { code: 1001, data: { field: "email" }, msg: "Email cannot be empty" }, IFACE);
    expect(o).toEqual({
      kind: "fail",
      result: { ok: false, code: 1001, data: { field: "email" }, msg: "Email cannot be empty", status: 400 },
    });
  });

  it("a non-200 without an envelope becomes code 500 'interface exception'", () => {
    expect(interpret(502, "<html>Bad gateway</html>", IFACE)).toEqual({
      kind: "fail",
      result: { ok: false, code: 500, data: null, msg: IFACE, status: 502 },
    });
    expect(interpret(500, null, IFACE)).toMatchObject({ kind: "fail", result: { code: 500, msg: IFACE } });
  });

  it("a 200 without an envelope is an interface exception too", () => {
    expect(interpret(200, "<html></html>", IFACE)).toMatchObject({ kind: "fail", result: { code: 500, msg: IFACE } });
  });

  it("HTTP 401 ends the session whatever the body", () => {
    expect(interpret(401, { code: 401, data: null, msg: "Login state expired" }, IFACE)).toMatchObject({
      kind: "unauthorized",
      result: { code: 401, msg: "Login state expired", status: 401 },
    });
    expect(interpret(401, null, IFACE)).toMatchObject({ kind: "unauthorized", result: { code: 401, status: 401 } });
  });

  it("an envelope claiming success on an error status is still an error", () => {
    expect(interpret(500, { code: 1, data: null, msg: "?" }, IFACE)).toMatchObject({
      kind: "fail",
      result: { code: 500 },
    });
  });
});

describe("isEnvelope", () => {
  it("needs a numeric code, a string msg and a data key", () => {
    expect(isEnvelope({ code: 1, data: null, msg: "" })).toBe(true);
    expect(isEnvelope({ code: "1", data: null, msg: "" })).toBe(false);
    expect(isEnvelope({ code: 1, msg: "" })).toBe(false);
    expect(isEnvelope(null)).toBe(false);
    expect(isEnvelope("text")).toBe(false);
  });
});
