import { describe, expect, it } from "vitest";
import { buildUrl, createHttpClient, fileNameOf, type HttpDeps } from "./client";
import { createLoadingTracker } from "./loading";

interface Call {
  url: string;
  init: RequestInit;
}

function setup(reply: (call: Call) => Promise<Response> | Response, overrides: Partial<HttpDeps> = {}) {
  const calls: Call[] = [];
  const toasts: string[] = [];
  let unauthorized = 0;
  let mayToast = true;
  const loading = createLoadingTracker(0);
  const client = createHttpClient({
    fetch: async (url, init) => {
      const call = { url, init };
      calls.push(call);
      return reply(call);
    },
    getLang: () => "en",
    getToken: () => "tok",
    text: (key) => (key === "error.interface" ? "Interface exception" : "Login state expired"),
    toastError: (msg) => toasts.push(msg),
    onUnauthorized: () => {
      unauthorized += 1;
    },
    mayToastLoginExpired: () => {
      const ok = mayToast;
      mayToast = false;
      return ok;
    },
    loading,
    ...overrides,
  });
  return { client, calls, toasts, loading, unauthorized: () => unauthorized };
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("HTTP client (spec 01 §7-§9)", () => {
  it("sends lang and token headers and a JSON body", async () => {
    const { client, calls } = setup(() => json(200, { code: 1, data: { ok: true }, msg: "success" }));
    const result = await client.post<{ ok: boolean }>("/api/card-user/login", { email: "a@b.co" });
    expect(result).toMatchObject({ ok: true, data: { ok: true } });
    const headers = calls[0]?.init.headers as Record<string, string>;
    expect(headers.lang).toBe("en");
    expect(headers["x-auth-token"]).toBe("tok");
    expect(headers["content-type"]).toBe("application/json");
    expect(calls[0]?.init.body).toBe(JSON.stringify({ email: "a@b.co" }));
    expect(calls[0]?.init.method).toBe("POST");
  });

  it("omits the token when asked and builds the query string", async () => {
    const { client, calls } = setup(() => json(200, { code: 1, data: null, msg: "" }));
    await client.get("/api/dev/outbox", {
      auth: false,
      query: { to: "a@b.co", channel: undefined, page: 2, k: ["x", "y"] },
    });
    expect(calls[0]?.url).toBe("/api/dev/outbox?to=a%40b.co&page=2&k=x&k=y");
    expect((calls[0]?.init.headers as Record<string, string>)["x-auth-token"]).toBeUndefined();
  });

  it("toasts a failed reply's message and resolves to it", async () => {
    const { client, toasts } = setup(() => json(400, { code: 1010, data: null, msg: "Wrong account or password" }));
    const result = await client.post("/api/card-user/login", {});
    expect(result).toMatchObject({ ok: false, code: 1010, msg: "Wrong account or password", status: 400 });
    expect(toasts).toEqual(["Wrong account or password"]);
  });

  it("a caller can opt out of the toast", async () => {
    const { client, toasts } = setup(() => json(400, { code: 1001, data: { field: "email" }, msg: "bad" }));
    const result = await client.post("/x", {}, { toast: false });
    expect(result).toMatchObject({ ok: false, data: { field: "email" } });
    expect(toasts).toEqual([]);
  });

  it("code -10000 gives no toast and no value", async () => {
    const { client, toasts } = setup(() => json(200, { code: -10000, data: null, msg: "hidden" }));
    expect(await client.get("/x")).toBeUndefined();
    expect(toasts).toEqual([]);
  });

  it("401 ends the session and toasts 'login state expired' at most once per window", async () => {
    const { client, toasts, unauthorized } = setup(() =>
      json(401, { code: 401, data: null, msg: "Login state expired" }),
    );
    const a = await client.get("/api/card-user/userInfo");
    const b = await client.get("/api/card-user/userInfo");
    expect(a).toMatchObject({ ok: false, status: 401 });
    expect(b).toMatchObject({ ok: false, status: 401 });
    expect(unauthorized()).toBe(2);
    expect(toasts).toEqual(["Login state expired"]);
  });

  it("a non-200 without an envelope resolves to code 500 'interface exception'", async () => {
    const { client, toasts } = setup(() => new Response("<html>502</html>", { status: 502 }));
    expect(await client.get("/x")).toEqual({
      ok: false,
      code: 500,
      data: null,
      msg: "Interface exception",
      status: 502,
    });
    expect(toasts).toEqual(["Interface exception"]);
  });

  it("a network error resolves to the error reply instead of throwing", async () => {
    const { client } = setup(() => Promise.reject(new TypeError("Failed to fetch")));
    await expect(client.get("/x")).resolves.toEqual({
      ok: false,
      code: 500,
      data: null,
      msg: "Interface exception",
      status: 0,
    });
  });

  it("aborts after the timeout", async () => {
    const { client } = setup(
      ({ init }) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
      { timeoutMs: 20 },
    );
    await expect(client.get("/slow", { toast: false })).resolves.toMatchObject({ ok: false, code: 500, status: 0 });
  });

  it("counts calls for the overlay unless told not to", async () => {
    let release: (r: Response) => void = () => undefined;
    const { client, loading } = setup(() => new Promise<Response>((r) => (release = r)));
    const pending = client.get("/x");
    await Promise.resolve();
    expect(loading.pending()).toBe(1);
    release(json(200, { code: 1, data: null, msg: "" }));
    await pending;
    expect(loading.pending()).toBe(0);
    const quiet = setup(() => json(200, { code: 1, data: null, msg: "" }));
    const p2 = quiet.client.get("/y", { overlay: false });
    expect(quiet.loading.pending()).toBe(0);
    await p2;
  });

  it("downloads a file with its server-given name; an envelope error follows the policy", async () => {
    const file = setup(
      () =>
        new Response(new Uint8Array([1, 2, 3]), {
          status: 200,
          headers: {
            "content-type": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "content-disposition": "attachment; filename*=UTF-8''outbox.xlsx",
          },
        }),
    );
    const ok = await file.client.download("/api/dev/outbox/export", { query: { to: "a@b.co" } });
    expect(ok?.ok).toBe(true);
    if (ok?.ok) {
      expect(ok.data.fileName).toBe("outbox.xlsx");
      expect(ok.data.blob.size).toBe(3);
    }
    const bad = setup(() => json(404, { code: 1004, data: null, msg: "Not found" }));
    expect(await bad.client.download("/x")).toMatchObject({ ok: false, code: 1004 });
    expect(bad.toasts).toEqual(["Not found"]);
  });
});

describe("helpers", () => {
  it("buildUrl appends to an existing query and skips empties", () => {
    expect(buildUrl("/a?x=1", { y: "2", z: "" })).toBe("/a?x=1&y=2");
    expect(buildUrl("/a", {})).toBe("/a");
  });
  it("fileNameOf reads RFC 5987 and plain names", () => {
    expect(fileNameOf("attachment; filename*=UTF-8''%E5%AF%BC%E5%87%BA.xlsx", "f")).toBe("导出.xlsx");
    expect(fileNameOf('attachment; filename="a b.xlsx"', "f")).toBe("a b.xlsx");
    expect(fileNameOf(null, "f.xlsx")).toBe("f.xlsx");
  });
});
