import { describe, expect, it } from "vitest";
import { ChunkLoadError, isChunkLoadError, loadChunk, withTimeout } from "./lazy";

describe("chunk loading (spec 01 §8, §9)", () => {
  it("recognises failed chunk loads in the browsers' wordings", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: https://x/assets/a.js"))).toBe(
      true,
    );
    expect(isChunkLoadError(new TypeError("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("Unable to preload CSS for /assets/a.css"))).toBe(true);
    expect(isChunkLoadError(new ChunkLoadError("timeout"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
    expect(isChunkLoadError("string")).toBe(false);
  });

  it("times out a hung load with a ChunkLoadError", async () => {
    const never = new Promise<never>(() => undefined);
    await expect(loadChunk(() => never, 10)).rejects.toBeInstanceOf(ChunkLoadError);
  });

  it("passes results and errors through", async () => {
    await expect(withTimeout(Promise.resolve(5), 100, () => new Error("t"))).resolves.toBe(5);
    await expect(withTimeout(Promise.reject(new Error("boom")), 100, () => new Error("t"))).rejects.toThrow("boom");
  });
});
