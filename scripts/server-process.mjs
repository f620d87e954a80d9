// How the server process runs in production (`npm start`) and in the benchmarks that measure it: the
// bundle from build-server.mjs on plain node, with glibc's allocator told to keep memory compact.
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * glibc malloc settings, unless the environment sets its own:
 * - MALLOC_ARENA_MAX=2: glibc makes up to eight arenas per core for threads that allocate at once; each
 *   keeps its freed memory. Node allocates on its main thread and a few helpers, so two are plenty.
 * - MALLOC_MMAP_THRESHOLD_=65536: buffers of 64 KB and more (request bodies, COPY blobs, query results)
 *   get their own mappings, returned to the system when freed. Left dynamic, the threshold climbs to
 *   32 MB after the first large frees, and such buffers then fragment the heap for good: a
 *   million-code card import left the server about 60 MB larger this way.
 */
export const MALLOC_DEFAULTS = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "65536" };

/**
 * V8 heap settings for a server on the embedded database, the small single-process deployment where the
 * whole product (PostgreSQL included) should fit in 300 MB. Its live heap is small (about 50 MB); what grows
 * it is garbage from bursts such as a million-code card import (a few kilobytes of short-lived objects per
 * code):
 * - --max-semi-space-size=4: the young generation's halves stay at 4 MB instead of growing to 16 MB
 *   (24 MB less memory for good; 8 MB left an import's peak within a few MB of 300 MB);
 * - --heap-growing-percent=50: after a full collection the old generation may grow to 1.5 times what
 *   survived before the next one, instead of up to 4 times when V8 sees a high allocation rate, which let
 *   the heap reach 200 MB during an import with 60 MB alive.
 * Measured on the million-code import (bench/catalog.bench.ts): peak 269 to 271 MB instead of 414 to 485 MB,
 * at about a tenth more CPU. The small young generation costs a busy IM gateway about a quarter more CPU per
 * message, so a server on a PostgreSQL server (DATABASE_URL), the deployment for load, does not use them.
 */
export const EMBEDDED_V8_FLAGS = ["--max-semi-space-size=4", "--heap-growing-percent=50"];

/**
 * V8 heap settings for a server on a PostgreSQL server (DATABASE_URL), the deployment for load:
 * - --max-semi-space-size=64: the young generation's halves may grow to 64 MB instead of 16 MB. A busy IM
 *   gateway allocates a few kilobytes per message, nearly all of it garbage within milliseconds; what a
 *   scavenge costs is what is still alive (the messages in flight), so four times fewer scavenges cost
 *   about half as much in all. Measured with bench/im-ws.bench.ts (--trace-gc, alternating runs): garbage
 *   collection 0.9 s instead of 2.1 s per run, the server's CPU per message about a fifth lower, for about
 *   60 MB more resident memory at 10,000 connections.
 */
export const POSTGRES_V8_FLAGS = ["--max-semi-space-size=64"];

/** The command line and environment of the server process. */
export function serverProcess(env = process.env) {
  return {
    command: process.execPath,
    args: [...(env.DATABASE_URL ? POSTGRES_V8_FLAGS : EMBEDDED_V8_FLAGS), path.join(root, "apps/server/dist/main.mjs")],
    env: { ...MALLOC_DEFAULTS, ...env },
  };
}
