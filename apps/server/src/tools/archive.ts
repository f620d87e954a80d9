import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import * as tar from "tar";
import { snapshotPglite } from "../db/database";

/**
 * A Tessera backup: one .tar.gz holding `manifest.json`, `database.tar.gz` (the embedded database's
 * data folder, consistent), `secret.key` (the key that encrypts card secrets and signs tokens, unless the
 * installation takes it from SECRET_KEY) and `files/` (stored uploads).
 */
export interface Manifest {
  format: "tessera-backup/1";
  createdAt: string;
  /** Whether the key file is inside; when false, the restore needs the same SECRET_KEY. */
  secretKeyIncluded: boolean;
}

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/**
 * The running server's copy of its database, over loopback; null when no server answers there. A direct
 * loopback request needs no token; BACKUP_TOKEN, when given, is sent too (the server accepts either).
 */
export async function snapshotFromServer(
  port: number,
  token: string | undefined = process.env.BACKUP_TOKEN || undefined,
): Promise<Blob | null> {
  let res: Response;
  try {
    res = await fetch(
      `http://127.0.0.1:${port}/backup/database`,
      token ? { headers: { authorization: `Bearer ${token}` } } : {},
    );
  } catch {
    return null;
  }
  if (!res.ok) throw new Error(`the server on port ${port} refused the backup: ${res.status} ${await res.text()}`);
  return res.blob();
}

/** A copy of a data folder no server has open. */
export async function snapshotFromFolder(pgdata: string): Promise<Blob> {
  const pglite = await PGlite.create({ dataDir: pgdata });
  try {
    return await snapshotPglite(pglite);
  } finally {
    await pglite.close();
  }
}

/** Writes the backup archive of `dataDir` with the given database copy. The database first, then files. */
export async function writeBackup(dataDir: string, database: Blob, outFile: string): Promise<Manifest> {
  const staging = await mkdtemp(path.join(tmpdir(), "tessera-backup-"));
  try {
    await writeFile(path.join(staging, "database.tar.gz"), Buffer.from(await database.arrayBuffer()));
    const keyFile = path.join(dataDir, "secret.key");
    const secretKeyIncluded = await exists(keyFile);
    if (secretKeyIncluded) await cp(keyFile, path.join(staging, "secret.key"));
    // Stored files are written once and never changed, so copying them after the database copy keeps
    // every file the copy refers to.
    if (await exists(path.join(dataDir, "files"))) {
      await cp(path.join(dataDir, "files"), path.join(staging, "files"), { recursive: true });
    }
    const manifest: Manifest = { format: "tessera-backup/1", createdAt: new Date().toISOString(), secretKeyIncluded };
    await writeFile(path.join(staging, "manifest.json"), JSON.stringify(manifest, null, 2));
    await tar.create({ gzip: true, file: outFile, cwd: staging, portable: true }, [
      "manifest.json",
      "database.tar.gz",
      ...(secretKeyIncluded ? ["secret.key"] : []),
      ...((await exists(path.join(staging, "files"))) ? ["files"] : []),
    ]);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Restores a backup into `dataDir`, which must be empty or absent. */
export async function restoreBackup(file: string, dataDir: string): Promise<Manifest> {
  if ((await exists(dataDir)) && (await readdir(dataDir)).length > 0) {
    throw new Error(`${dataDir} is not empty: restore into a new, empty data folder`);
  }
  const staging = await mkdtemp(path.join(tmpdir(), "tessera-restore-"));
  try {
    await tar.extract({ file, cwd: staging });
    const manifest = JSON.parse(await readFile(path.join(staging, "manifest.json"), "utf8")) as Manifest;
    if (manifest.format !== "tessera-backup/1") {
      throw new Error(`${file} is not a Tessera backup (format ${String(manifest.format)})`);
    }
    await mkdir(dataDir, { recursive: true });
    const database = new Blob([await readFile(path.join(staging, "database.tar.gz"))]);
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, "pgdata"), loadDataDir: database });
    await pglite.close();
    if (manifest.secretKeyIncluded) await cp(path.join(staging, "secret.key"), path.join(dataDir, "secret.key"));
    if (await exists(path.join(staging, "files"))) {
      await cp(path.join(staging, "files"), path.join(dataDir, "files"), { recursive: true });
    }
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
