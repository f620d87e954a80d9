import type { Config } from "./config";
import { openPglite, openPostgres, type Database } from "./db/database";
import { migrate } from "./db/migrate";
import { systemClock, type Clock } from "./platform/clock";
import { createPasswordHasher, type PasswordHasher } from "./platform/crypto/passwords";
import { loadSecret } from "./platform/crypto/secret";
import { createMailer, createSmsSender, type Mailer, type SmsSender } from "./platform/messaging/adapters";
import { createStorage, type FileStorage } from "./platform/storage";
import { createPayments, type PaymentsAdapter } from "./platform/adapters/payments";
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

export async function createContext(
  config: Config,
  options: { database?: Database; clock?: Clock; log?: (line: string) => void } = {},
): Promise<AppContext> {
  const database = options.database ?? (await openDatabase(config));
  await migrate(database);
  const log = options.log ?? ((line: string) => console.log(line));
  const clock = options.clock ?? systemClock;
  const secret = await loadSecret(config.secretKey, config.dataDir);
  return {
    config,
    database,
    clock,
    hasher: createPasswordHasher(config.argon2MemoryKib, config.argon2Iterations),
    secret,
    mailer: createMailer(config, database.db, log),
    sms: createSmsSender(database.db, log),
    storage: createStorage(config),
    payments: createPayments(config),
    einvoice: createEInvoice(),
    courier: createCourier(config, secret),
    miniprogramPlatforms: createMiniprogramPlatforms(config, database.db, clock),
    bank: createBankPayouts(config),
    log,
  };
}
