import path from "node:path";
import { openPglite, openPostgres } from "../db/database";
import { checkInvariants } from "../modules/ledger";
import { copyDatabase } from "./copy-database";

/**
 * `npm run migrate-to-postgres`: copies the embedded installation in DATA_DIR (default ./data; stop its
 * server first) into the empty PostgreSQL database named by DATABASE_URL, then checks the ledger there.
 * Stored files and the secret key stay in DATA_DIR: keep that folder (or SECRET_KEY) for the new setup.
 */
const url = process.env.DATABASE_URL;
if (!url) {
  console.error(
    "Set DATABASE_URL to the empty PostgreSQL database to copy into, e.g. postgres://user@host:5432/tessera",
  );
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
const source = await openPglite(path.join(dataDir, "pgdata"));
const target = await openPostgres(url);
try {
  const report = await copyDatabase(source, target, (line) => console.log(`  ${line}`));
  const problems = await checkInvariants(target.db);
  if (problems.length > 0) throw new Error(`the ledger in the copy does not add up:\n${problems.join("\n")}`);
  const rows = report.tables.reduce((n, t) => n + t.rows, 0);
  console.log(
    `Copied ${rows} rows in ${report.tables.length} tables into ${url.replace(/\/\/[^@]*@/, "//…@")}; ledger checked.`,
  );
  console.log(
    `Now start the server with DATABASE_URL set and the same DATA_DIR (${dataDir}: stored files and secret.key stay there) or SECRET_KEY.`,
  );
} catch (err) {
  console.error(`Not copied: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
} finally {
  await source.close();
  await target.close();
}
