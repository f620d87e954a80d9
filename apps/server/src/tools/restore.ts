import path from "node:path";
import { restoreBackup } from "./archive";

/** `npm run restore -- FILE`: restores a backup into DATA_DIR (default ./data), which must be empty. */
const file = process.argv[2];
if (!file) {
  console.error("usage: npm run restore -- BACKUP_FILE   (into DATA_DIR, default ./data, which must be empty)");
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR || "./data");
try {
  const manifest = await restoreBackup(path.resolve(file), dataDir);
  console.log(
    `Restored the backup of ${manifest.createdAt} into ${dataDir}. Start the server with DATA_DIR=${dataDir}.`,
  );
  if (!manifest.secretKeyIncluded) {
    console.log(
      "The backup holds no secret.key: start the server with the same SECRET_KEY as before, or card secrets cannot be read.",
    );
  }
} catch (err) {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
}
