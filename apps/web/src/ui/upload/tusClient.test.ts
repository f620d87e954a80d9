import { describe, expect, it } from "vitest";
import { STORAGE_PREFIX, TusStop, TusUpload, fingerprintOf, type TusStorage } from "./tusClient";

/**
 * The upload client (tus-js-client set up for our server) against an in-memory tus server behind a
 * fetch function, with switches for failures.
 */
function fakeServer() {
  const uploads = new Map<string, { length: number; data: Uint8Array; offset: number; meta: string; video: boolean }>();
  let seq = 0;
  const log: string[] = [];
  const requests: { method: string; headers: Record<string, string> }[] = [];
  const state = {
    /** PATCH replies to fail (status, or 0 for a network error) before the server answers normally again. */
    failures: [] as number[],
    /** Bytes of a failing PATCH the server keeps anyway (the connection broke mid-part). */
    keepOnFailure: 0,
    /** The last byte's PATCH stores the bytes but fails to make the video (once). */
    failFinish: false,
    /** PATCH replies that never come (until the client gives up on them). */
    hangs: 0,
  };
  const reply = (status: number, headers: Record<string, string> = {}, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { "Tus-Resumable": "1.0.0", ...headers },
    });
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const headers = init.headers as Record<string, string>;
    expect(headers["Tus-Resumable"]).toBe("1.0.0");
    log.push(`${init.method} ${url}${headers["Upload-Offset"] !== undefined ? ` @${headers["Upload-Offset"]}` : ""}`);
    requests.push({ method: init.method ?? "", headers });
    if (init.method === "PATCH" && state.hangs > 0) {
      state.hangs--;
      return new Promise<Response>((_, reject) =>
        init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    }
    if (init.method === "POST") {
      const id = `/api/media/uploads/u${++seq}`;
      const length = Number(headers["Upload-Length"]);
      uploads.set(id, {
        length,
        data: new Uint8Array(length),
        offset: 0,
        meta: headers["Upload-Metadata"] ?? "",
        video: false,
      });
      return reply(201, { Location: id });
    }
    const u = uploads.get(url);
    if (!u) return reply(404, {}, { code: 1004, msg: "This upload does not exist or has ended" });
    const done = () => u.offset === u.length && u.video;
    if (init.method === "HEAD") {
      return reply(200, {
        "Upload-Offset": String(u.offset),
        "Upload-Length": String(u.length),
        ...(done() && { "Tessera-Video-Id": "42" }),
      });
    }
    if (init.method === "PATCH") {
      const bytes = init.body ? new Uint8Array(await (init.body as Blob).arrayBuffer()) : new Uint8Array(0);
      if (Number(headers["Upload-Offset"]) !== u.offset) return reply(409, {}, { code: 1005, msg: "offset" });
      const failure = state.failures.shift();
      if (failure !== undefined) {
        const kept = Math.min(state.keepOnFailure, bytes.length);
        u.data.set(bytes.subarray(0, kept), u.offset);
        u.offset += kept;
        if (failure === 0) throw new TypeError("Failed to fetch");
        return reply(
          failure,
          {},
          {
            code: failure === 413 ? 1001 : 500,
            msg: failure === 413 ? "Video size cannot exceed 2GB" : "System error",
          },
        );
      }
      u.data.set(bytes, u.offset);
      u.offset += bytes.length;
      if (u.offset === u.length && state.failFinish) {
        state.failFinish = false;
        return reply(500, {}, { code: 500, msg: "System error" });
      }
      if (u.offset === u.length) u.video = true;
      return new Response(null, {
        status: 204,
        headers: { "Upload-Offset": String(u.offset), ...(done() && { "Tessera-Video-Id": "42" }) },
      });
    }
    return reply(405);
  };
  return { fetch, uploads, log, requests, state };
}

function memoryStorage(): TusStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

function fileOf(size: number, name = "clip.mp4"): File & { content: Uint8Array } {
  const bytes = new Uint8Array(size).map((_, i) => (i * 31) % 251);
  return Object.assign(new File([bytes], name, { type: "video/mp4", lastModified: 1_700_000_000_000 }), {
    content: bytes,
  });
}

function uploader(
  server: Pick<ReturnType<typeof fakeServer>, "fetch">,
  storage: TusStorage,
  file: File,
  progress: number[] = [],
  timeoutMs?: number,
) {
  return new TusUpload({
    endpoint: "/api/media/uploads",
    file,
    metadata: { filename: file.name, type: "3", name: "片名", id: "" },
    fingerprintScope: "u1|3|",
    headers: () => ({ lang: "en", "x-auth-token": "tok" }),
    fetch: server.fetch,
    storage,
    onProgress: (sent) => progress.push(sent),
    partSize: 1000,
    retryDelays: [0, 0, 0],
    ...(timeoutMs !== undefined && { timeoutMs }),
  });
}

describe("tus client", () => {
  it("creates the upload, sends parts of the part size in order and returns the video", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const file = fileOf(2500);
    const progress: number[] = [];
    const upload = uploader(server, storage, file, progress);
    const running = upload.start();
    // A second start while it runs is the same upload.
    expect(upload.start()).toBe(running);
    const result = await running;
    expect(result.videoId).toBe("42");
    expect(server.log).toEqual([
      "POST /api/media/uploads",
      "PATCH /api/media/uploads/u1 @0",
      "PATCH /api/media/uploads/u1 @1000",
      "PATCH /api/media/uploads/u1 @2000",
    ]);
    expect(progress).toEqual([0, 1000, 2000, 2500]);
    expect([...(server.uploads.get("/api/media/uploads/u1")?.data ?? [])]).toEqual([...file.content]);
    const meta = server.uploads.get("/api/media/uploads/u1")?.meta ?? "";
    expect(meta).toContain(`name ${Buffer.from("片名").toString("base64")}`);
    expect(meta).toContain(`filename ${Buffer.from("clip.mp4").toString("base64")}`);
    // Empty fields are left out.
    expect(meta.split(",").map((pair) => pair.split(" ")[0])).toEqual(["filename", "type", "name"]);
    // The login token and the language go with every request; parts are offset+octet-stream.
    expect(server.requests.every((r) => r.headers["x-auth-token"] === "tok" && r.headers.lang === "en")).toBe(true);
    expect(
      server.requests
        .filter((r) => r.method === "PATCH")
        .every((r) => r.headers["Content-Type"] === "application/offset+octet-stream"),
    ).toBe(true);
    // A finished upload is forgotten.
    expect(storage.map.size).toBe(0);
  });

  it("retries a failed part up to three times, resuming from the offset the server reports", async () => {
    const server = fakeServer();
    server.state.failures = [0, 503];
    server.state.keepOnFailure = 400;
    const file = fileOf(2000);
    const result = await uploader(server, memoryStorage(), file).start();
    expect(result.videoId).toBe("42");
    // Network error after 400 bytes, HEAD, retry at 400 (503 after 400 more), HEAD, retry at 800.
    expect(server.log).toEqual([
      "POST /api/media/uploads",
      "PATCH /api/media/uploads/u1 @0",
      "HEAD /api/media/uploads/u1",
      "PATCH /api/media/uploads/u1 @400",
      "HEAD /api/media/uploads/u1",
      "PATCH /api/media/uploads/u1 @800",
      "PATCH /api/media/uploads/u1 @1800",
    ]);
    expect([...(server.uploads.get("/api/media/uploads/u1")?.data ?? [])]).toEqual([...file.content]);
  });

  it("gives up after three retries, and at once on a refusal, with the server's message", async () => {
    const server = fakeServer();
    server.state.failures = [500, 500, 500, 500];
    await expect(uploader(server, memoryStorage(), fileOf(1500)).start()).rejects.toMatchObject({
      reason: "failed",
      status: 500,
    });
    expect(server.log.filter((l) => l.startsWith("PATCH"))).toHaveLength(4);

    const refused = fakeServer();
    refused.state.failures = [413];
    const err = await uploader(refused, memoryStorage(), fileOf(1500))
      .start()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TusStop);
    expect(err).toMatchObject({ reason: "failed", serverMessage: "Video size cannot exceed 2GB" });
    expect(refused.log.filter((l) => l.startsWith("PATCH"))).toHaveLength(1);
  });

  it("pauses, and a new upload of the same file (after a reload) continues from the stored address", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const file = fileOf(5000);
    let parts = 0;
    let upload: TusUpload | null = null;
    const pausing = {
      ...server,
      fetch: async (url: string, init: RequestInit) => {
        // The user presses pause while the third part is on its way.
        if (init.method === "PATCH" && ++parts === 3) upload?.pause();
        if (init.signal?.aborted) throw new DOMException("aborted", "AbortError");
        return server.fetch(url, init);
      },
    };
    upload = uploader(pausing, storage, file);
    await expect(upload.start()).rejects.toMatchObject({ reason: "paused" });
    const stored = [...storage.map.entries()];
    expect(stored).toHaveLength(1);
    expect(stored[0]?.[0].startsWith(STORAGE_PREFIX)).toBe(true);
    expect(stored[0]?.[1]).toBe("/api/media/uploads/u1");
    const offsetAtPause = server.uploads.get("/api/media/uploads/u1")?.offset ?? 0;
    expect(offsetAtPause).toBe(2000);

    // The page reloads: a new client for the same file asks the server where it stands.
    server.log.length = 0;
    const again = await uploader(server, storage, file).start();
    expect(again.videoId).toBe("42");
    expect(server.log[0]).toBe("HEAD /api/media/uploads/u1");
    expect(server.log[1]).toBe("PATCH /api/media/uploads/u1 @2000");
    expect(server.log.some((l) => l.startsWith("POST"))).toBe(false);
    expect([...(server.uploads.get("/api/media/uploads/u1")?.data ?? [])]).toEqual([...file.content]);
  });

  it("starts afresh when the stored upload is gone from the server", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const file = fileOf(1200);
    const upload = uploader(server, storage, file);
    storage.setItem(STORAGE_PREFIX + fingerprintOf(file, "u1|3|"), "/api/media/uploads/gone");
    await upload.start();
    expect(server.log.slice(0, 2)).toEqual(["HEAD /api/media/uploads/gone", "POST /api/media/uploads"]);
    expect(storage.map.size).toBe(0);
  });

  it("keeps the address until the video exists: a finish that failed is completed by one empty PATCH", async () => {
    const server = fakeServer();
    server.state.failFinish = true;
    const storage = memoryStorage();
    const file = fileOf(1500);
    const result = await uploader(server, storage, file).start();
    expect(result).toEqual({ videoId: "42", url: "/api/media/uploads/u1" });
    // The last part's reply is a 500 although its bytes are in: HEAD finds every byte but no video.
    expect(server.log).toEqual([
      "POST /api/media/uploads",
      "PATCH /api/media/uploads/u1 @0",
      "PATCH /api/media/uploads/u1 @1000",
      "HEAD /api/media/uploads/u1",
      "PATCH /api/media/uploads/u1 @1500",
    ]);
    expect(storage.map.size).toBe(0);
  });

  it("gives up on a request that hangs past the timeout and retries it", async () => {
    const server = fakeServer();
    server.state.hangs = 1;
    const result = await uploader(server, memoryStorage(), fileOf(1200), [], 50).start();
    expect(result.videoId).toBe("42");
    expect(server.log).toEqual([
      "POST /api/media/uploads",
      "PATCH /api/media/uploads/u1 @0",
      "HEAD /api/media/uploads/u1",
      "PATCH /api/media/uploads/u1 @0",
      "PATCH /api/media/uploads/u1 @1000",
    ]);
  });

  it("resumes the same client after a pause from the server's offset", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const file = fileOf(3000);
    let upload: TusUpload | null = null;
    let paused = false;
    const pausing = {
      fetch: async (url: string, init: RequestInit) => {
        // The user presses pause while the second part is on its way.
        if (
          init.method === "PATCH" &&
          (init.headers as Record<string, string>)["Upload-Offset"] === "1000" &&
          !paused
        ) {
          paused = true;
          upload?.pause();
        }
        if (init.signal?.aborted) throw new DOMException("aborted", "AbortError");
        return server.fetch(url, init);
      },
    };
    const progress: number[] = [];
    upload = uploader(pausing, storage, file, progress);
    await expect(upload.start()).rejects.toMatchObject({ reason: "paused" });
    // Nothing more is sent while paused.
    await new Promise((r) => setTimeout(r, 20));
    expect(server.log).toEqual(["POST /api/media/uploads", "PATCH /api/media/uploads/u1 @0"]);
    expect(storage.getItem(STORAGE_PREFIX + fingerprintOf(file, "u1|3|"))).toBe("/api/media/uploads/u1");
    const again = await upload.start();
    expect(again.videoId).toBe("42");
    expect(server.log.slice(2)).toEqual([
      "HEAD /api/media/uploads/u1",
      "PATCH /api/media/uploads/u1 @1000",
      "PATCH /api/media/uploads/u1 @2000",
    ]);
    expect(progress).toEqual([0, 1000, 2000, 3000]);
  });
});
