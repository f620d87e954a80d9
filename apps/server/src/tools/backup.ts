import { existsSync } from "node:fs";
import path from "node:path";
import { snapshotFromFolder, snapshotFromServer, writeBackup } from "./archive";

/**
 * `npm run backup [-- FILE]`: a consistent backup of the embedded installation in DATA_DIR (default
 * ./data): from the running server over loopback (PORT, default 8080) while it keeps serving, or from
 * the folder itself when no server runs.
 */
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
const port = Number(process.env.PORT || 8080);
const out = path.resolve(process.argv[2] ?? `tessera-backup-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`);

if (process.env.DATABASE_URL) {
  console.error(
    "DATABASE_URL is set: this installation runs on a PostgreSQL server. Back it up with pg_dump (docs/deploy.md).",
  );
  process.exit(2);
}
let database = await snapshotFromServer(port);
if (database) console.log(`Database copied from the server running on port ${port}.`);
else {
  const pgdata = path.join(dataDir, "pgdata");
  if (!existsSync(path.join(pgdata, "PG_VERSION"))) {
    console.error(`No server answers on port ${port} and ${pgdata} holds no database.`);
    process.exit(2);
  }
  if (existsSync(path.join(pgdata, "postmaster.pid")) && !process.argv.includes("--force")) {
    console.error(
      `No server answers on port ${port}, but ${pgdata} looks in use (postmaster.pid). Set PORT to the server's port, or stop it; --force if it crashed.`,
    );
    process.exit(2);
  }
  database = await snapshotFromFolder(pgdata);
  console.log(`Database copied from ${pgdata} (no server running).`);
}
const manifest = await writeBackup(dataDir, database, out);
console.log(`Backup written to ${out}`);
if (manifest.secretKeyIncluded) {
  console.log(
    "WARNING: the backup holds secret.key, which decrypts every card secret: store it as safely as the card secrets themselves.",
  );
} else {
  console.log(
    "WARNING: no secret.key in the data folder (SECRET_KEY is set): keep that key. Without it the card secrets in this backup cannot be read.",
  );
}
