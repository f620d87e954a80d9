/**
 * Lazy page loading with the script chunk timeout of spec 01 §9 (120 s), and the test that tells a
 * failed chunk load (network, a redeployed build, a blocked style sheet) from a bug in a page.
 */
export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ChunkLoadError";
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const CHUNK_ERROR_PATTERNS = [
  /failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /importing a module script failed/i,
  /unable to preload css/i,
  /loading (?:css )?chunk .* failed/i,
  /module script.*mime type/i,
];

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === "ChunkLoadError") return true;
  return CHUNK_ERROR_PATTERNS.some((re) => re.test(error.message));
}

/** Wraps a page's `import()` so a hung chunk fails after the timeout instead of loading forever. */
export function loadChunk<T>(load: () => Promise<T>, ms = CHUNK_TIMEOUT_MS): Promise<T> {
  return withTimeout(load(), ms, () => new ChunkLoadError(`Loading a page chunk timed out after ${ms} ms`));
}
