import type { Config } from "./config";
import { openPglite, openPostgres, type Database } from "./db/database";
import { databaseName } from "./db/identity";
import { migrate } from "./db/migrate";
import { createHmac } from "node:crypto";
import { systemClock, type Clock } from "./platform/clock";
import { createPasswordHasher, type PasswordHasher } from "./platform/crypto/passwords";
import { loadSecret } from "./platform/crypto/secret";
import { createMailer, createSmsSender, type Mailer, type SmsSender } from "./platform/messaging/adapters";
import { createStorage, type FileStorage } from "./platform/storage";
import { createPayments, PaymentHandlers, type PaymentsAdapter } from "./platform/adapters/payments";
import { createCourier, type Courier } from "./platform/adapters/courier";
import { createEInvoice, type EInvoiceAdapter } from "./platform/adapters/einvoice";
import { createMiniprogramPlatforms, type MiniprogramPlatforms } from "./platform/adapters/miniprogram";
import { createBankPayouts, type BankPayouts } from "./platform/adapters/bank";

/** Everything the modules are built from: one per process (or per test file). */
export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  hasher: PasswordHasher;
  secret: Buffer;
  mailer: Mailer;
  sms: SmsSender;
  /** Uploaded files (images, documents, chat files): local disk under DATA_DIR/files. */
  storage: FileStorage;
  /** Customer payments (mall, takeout, payer page): the local sandbox adapter unless configured otherwise. */
  payments: PaymentsAdapter;
  /** What each subject does when an asynchronous payment or refund settles: modules register theirs at start. */
  paymentHandlers: PaymentHandlers;
  /** The e-invoice service invoices are issued through (local: numbered and rendered here). */
  einvoice: EInvoiceAdapter;
  /** The courier waybills and tracking go through (local: a simulator whose traces a job pushes). */
  courier: Courier;
  /** The social platforms' mini-program APIs (local: a sandbox platform with its own pages). */
  miniprogramPlatforms: MiniprogramPlatforms;
  /** Payout instructions to the bank (local: the payout files it would send, under DATA_DIR/bank-payouts). */
  bank: BankPayouts;
  log: (line: string) => void;
}

export async function openDatabase(config: Config): Promise<Database> {
  return config.databaseUrl
    ? openPostgres(config.databaseUrl)
    : openPglite(config.dataDir + "/pgdata", { sharedBuffers: config.pgliteSharedBuffers });
}

/**
 * The default REDIS_PREFIX: `tessera:` and 12 hex digits of an HMAC of the database's name under the
 * installation secret. Every node of one deployment has the same secret (SECRET_KEY) and database, so the
 * same prefix; two deployments differ in their secret (each installation makes its own) or database.
 */
async function derivedRedisPrefix(database: Database, secret: Buffer): Promise<string> {
  const name = await databaseName(database.db);
  const id = createHmac("sha256", secret).update(`redis-prefix\0${database.kind}\0${name}`).digest("hex");
  return `tessera:${id.slice(0, 12)}:`;
}

export async function createContext(
  config: Config,
  options: { database?: Database; clock?: Clock; log?: (line: string) => void } = {},
): Promise<AppContext> {
  const database = options.database ?? (await openDatabase(config));
  await migrate(database);
  const log = options.log ?? ((line: string) => console.log(line));
  const clock = options.clock ?? systemClock;
  const secret = await loadSecret(config.secretKey, config.dataDir);
  if (config.im.redisUrl && !config.im.redisPrefix) {
    config = { ...config, im: { ...config.im, redisPrefix: await derivedRedisPrefix(database, secret) } };
  }
  const paymentHandlers = new PaymentHandlers();
  return {
    config,
    database,
    clock,
    hasher: createPasswordHasher(config.argon2MemoryKib, config.argon2Iterations),
    secret,
    mailer: createMailer(config, database.db, log),
    sms: createSmsSender(config, database.db, log),
    storage: createStorage(config),
    payments: createPayments(config, log, paymentHandlers),
    paymentHandlers,
    einvoice: createEInvoice(),
    courier: createCourier(config, secret),
    miniprogramPlatforms: createMiniprogramPlatforms(config, database.db, clock),
    bank: createBankPayouts(config),
    log,
  };
}
