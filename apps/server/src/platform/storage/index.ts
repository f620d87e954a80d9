import { createReadStream } from "node:fs";
import { copyFile, mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import type { StorageConfig } from "../../config";
import { createS3Storage } from "./s3";

/**
 * Where uploaded files live. The local adapter keeps them on disk under DATA_DIR/files; the S3 adapter
 * (s3.ts) keeps them in an S3-compatible object store (STORAGE_ADAPTER=s3).
 */
export interface FileStorage {
  readonly kind: string;
  put(key: string, data: Buffer): Promise<void>;
  /** The bytes, or null when the key holds nothing. */
  get(key: string): Promise<Buffer | null>;
  /**
   * A stream of the bytes and their total length, or null when the key holds nothing. With a range
   * (inclusive byte positions, already checked against the size by the caller) only those bytes stream.
   */
  open(key: string, range?: { start: number; end: number }): Promise<{ stream: Readable; size: number } | null>;
  /** Moves a finished file from the local disk into storage (large uploads, without reading it into memory). */
  putFile(key: string, sourcePath: string): Promise<void>;
  delete(key: string): Promise<void>;
}

const KEY_RE = /^[a-zA-Z0-9][a-zA-Z0-9/_.-]{0,200}$/;

export function checkKey(key: string): string {
  if (!KEY_RE.test(key) || key.includes("..") || key.includes("//")) throw new Error(`invalid storage key: ${key}`);
  return key;
}

/** Files on the local disk. Writes go to a temporary name first, so a reader never sees half a file. */
export function createLocalStorage(root: string): FileStorage {
  const full = (key: string) => path.join(root, checkKey(key));
  const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === "ENOENT";
  return {
    kind: "local",
    async put(key, data) {
      const file = full(key);
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, data);
      await rename(tmp, file);
    },
    async get(key) {
      const opened = await this.open(key);
      if (!opened) return null;
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    },
    async open(key, range) {
      const file = full(key);
      try {
        const s = await stat(file);
        return { stream: createReadStream(file, range && { start: range.start, end: range.end }), size: s.size };
      } catch (err) {
        if (missing(err)) return null;
        throw err;
      }
    },
    async putFile(key, sourcePath) {
      const file = full(key);
      await mkdir(path.dirname(file), { recursive: true });
      try {
        await rename(sourcePath, file);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
        // Another file system: copy under a temporary name, then move into place.
        const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
        await copyFile(sourcePath, tmp);
        await rename(tmp, file);
        await rm(sourcePath, { force: true });
      }
    },
    async delete(key) {
      await rm(full(key), { force: true });
    },
  };
}

/** The storage the configuration names. */
export function createStorage(config: { dataDir: string; storage: StorageConfig }): FileStorage {
  const c = config.storage;
  return c.adapter === "s3" ? createS3Storage(c) : createLocalStorage(path.join(config.dataDir, "files"));
}
