import type { Config } from "../../config";
import { withTx, type Db } from "../../db/tx";
import { audit } from "../../platform/audit";
import type { PasswordHasher } from "../../platform/crypto/passwords";
import { generatePassword } from "../../platform/crypto/tokens";
import * as repo from "./repo";

/**
 * The first start creates the platform operator account: from OPS_EMAIL / OPS_PASSWORD, or with a
 * generated password that is printed once (and must be changed). Later starts do nothing.
 */
export async function ensureOperator(
  db: Db,
  config: Config,
  hasher: PasswordHasher,
  print: (line: string) => void,
): Promise<void> {
  if (await repo.operatorExists(db)) return;
  const generated = config.opsPassword === undefined;
  const password = config.opsPassword ?? generatePassword();
  const passwordHash = await hasher.hash(password);
  await withTx(db, async (tx) => {
    const userId = await repo.insertUser(tx, {
      kind: "operator",
      merchantId: null,
      email: config.opsEmail,
      passwordHash,
      mustChangePassword: generated,
    });
    await audit(tx, { actorUserId: null, action: "account.createOperator", subjectType: "user", subjectId: userId });
  });
  print(
    generated
      ? `Platform operator account created: ${config.opsEmail} with the one-time password ${password} (shown only now; change it after signing in)`
      : `Platform operator account created: ${config.opsEmail} (password from OPS_PASSWORD)`,
  );
}
