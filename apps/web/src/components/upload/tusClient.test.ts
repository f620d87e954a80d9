import { describe, expect, it } from "vitest";
import { STORAGE_PREFIX, TusStop, TusUpload, type TusFile, type TusStorage } from "./tusClient";

/** An in-memory tus server behind a fetch function, with switches for failures. */
function fakeServer() {
  const uploads = new Map<string, { length: number; data: Uint8Array; offset: number; meta: string }>();
  let seq = 0;
  const log: string[] = [];
  const state = {
    /** PATCH replies to fail (status, or 0 for a network error) before the server answers normally again. */
    failures: [] as number[],
    /** Bytes of a failing PATCH the server keeps anyway (the connection broke mid-part). */
    keepOnFailure: 0,
  };
  const reply = (status: number, headers: Record<string, string> = {}, body?: unknown) =>
    new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { "Tus-Resumable": "1.0.0", ...headers } });
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const headers = init.headers as Record<string, string>;
    expect(headers["Tus-Resumable"]).toBe("1.0.0");
    log.push(`${init.method} ${url}${headers["Upload-Offset"] !== undefined ? ` @${headers["Upload-Offset"]}` : ""}`);
    if (init.method === "POST") {
      const id = `/api/media/uploads/u${++seq}`;
      const length = Number(headers["Upload-Length"]);
      uploads.set(id, { length, data: new Uint8Array(length), offset: 0, meta: headers["Upload-Metadata"] ?? "" });
      return reply(201, { Location: id });
    }
    const u = uploads.get(url);
    if (!u) return reply(404, {}, { code: 1004, msg: "This upload does not exist or has ended" });
    if (init.method === "HEAD") return reply(200, { "Upload-Offset": String(u.offset), "Upload-Length": String(u.length), ...(u.offset === u.length && { "Tessera-Video-Id": "42" }) });
    if (init.method === "PATCH") {
      const bytes = new Uint8Array(await (init.body as Blob).arrayBuffer());
      if (Number(headers["Upload-Offset"]) !== u.offset) return reply(409, {}, { code: 1005, msg: "offset" });
      const failure = state.failures.shift();
      if (failure !== undefined) {
        const kept = Math.min(state.keepOnFailure, bytes.length);
        u.data.set(bytes.subarray(0, kept), u.offset);
        u.offset += kept;
        if (failure === 0) throw new TypeError("Failed to fetch");
        return reply(failure, {}, { code: failure === 413 ? 1001 : 500, msg: failure === 413 ? "Video size cannot exceed 2GB" : "System error" });
      }
      u.data.set(bytes, u.offset);
      u.offset += bytes.length;
      return new Response(null, { status: 204, headers: { "Upload-Offset": String(u.offset), ...(u.offset === u.length && { "Tessera-Video-Id": "42" }) } });
    }
    return reply(405);
  };
  return { fetch, uploads, log, state };
}

function memoryStorage(): TusStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) };
}

function fileOf(size: number, name = "clip.mp4"): TusFile & { bytes: Uint8Array } {
  const bytes = new Uint8Array(size).map((_, i) => (i * 31) % 251);
  const blob = new Blob([bytes], { type: "video/mp4" });
  return { name, size, type: "video/mp4", lastModified: 1_700_000_000_000, slice: (a, b) => blob.slice(a, b), bytes };
}

function uploader(server: ReturnType<typeof fakeServer>, storage: TusStorage, file: TusFile, progress: number[] = []) {
  return new TusUpload({
    endpoint: "/api/media/uploads",
    file,
    metadata: { filename: file.name, type: "3", name: "片名" },
    fingerprintScope: "u1|3|",
    headers: () => ({ lang: "en" }),
    fetch: server.fetch,
    storage,
    onProgress: (sent) => progress.push(sent),
    partSize: 1000,
    retryDelayMs: 0,
    sleep: () => Promise.resolve(),
  });
}

describe("tus client", () => {
  it("creates the upload, sends parts of the part size in order and returns the video", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const file = fileOf(2500);
    const progress: number[] = [];
    const result = await uploader(server, storage, file, progress).start();
    expect(result.videoId).toBe("42");
    expect(server.log).toEqual(["POST /api/media/uploads", "PATCH /api/media/uploads/u1 @0", "PATCH /api/media/uploads/u1 @1000", "PATCH /api/media/uploads/u1 @2000"]);
    expect(progress).toEqual([0, 1000, 2000, 2500]);
    expect([...(server.uploads.get("/api/media/uploads/u1")?.data ?? [])]).toEqual([...file.bytes]);
    const meta = server.uploads.get("/api/media/uploads/u1")?.meta ?? "";
    expect(meta).toContain(`name ${Buffer.from("片名").toString("base64")}`);
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
    expect([...(server.uploads.get("/api/media/uploads/u1")?.data ?? [])]).toEqual([...file.bytes]);
  });

  it("gives up after three retries, and at once on a refusal, with the server's message", async () => {
    const server = fakeServer();
    server.state.failures = [500, 500, 500, 500];
    await expect(uploader(server, memoryStorage(), fileOf(1500)).start()).rejects.toMatchObject({ reason: "failed", status: 500 });
    expect(server.log.filter((l) => l.startsWith("PATCH"))).toHaveLength(4);

    const refused = fakeServer();
    refused.state.failures = [413];
    const err = await uploader(refused, memoryStorage(), fileOf(1500)).start().catch((e: unknown) => e);
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
    expect([...(server.uploads.get("/api/media/uploads/u1")?.data ?? [])]).toEqual([...file.bytes]);
  });

  it("starts afresh when the stored upload is gone from the server", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const file = fileOf(1200);
    const upload = uploader(server, storage, file);
    storage.setItem(`${STORAGE_PREFIX}${[file.name, file.type, file.size, file.lastModified, "u1|3|"].join("|")}`, "/api/media/uploads/gone");
    await upload.start();
    expect(server.log.slice(0, 2)).toEqual(["HEAD /api/media/uploads/gone", "POST /api/media/uploads"]);
  });
});

