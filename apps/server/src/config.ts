import path from "node:path";

/**
 * Every environment variable the server reads, parsed in one place. The README's configuration table
 * mirrors this list.
 */
export interface Config {
  /** HTTP port for the web app, the API and the IM service. */
  port: number;
  host: string;
  /** Folder for the embedded database, the secret key file and uploads. */
  dataDir: string;
  /** A PostgreSQL server; when empty the embedded PGlite database in `dataDir` is used. */
  databaseUrl: string | undefined;
  /** The built web app to serve; absent folder means API only. */
  webDist: string;
  logLevel: string;
  /** 32-byte key (hex or base64) for keyed hashes and encryption; default: a key file in dataDir. */
  secretKey: string | undefined;
  opsEmail: string;
  opsPassword: string | undefined;
  tokenTtlSeconds: number;
  mailAdapter: "local" | "smtp";
  smtpUrl: string | undefined;
  mailFrom: string;
  smsAdapter: "local";
  argon2MemoryKib: number;
  argon2Iterations: number;
}

function int(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T, env: NodeJS.ProcessEnv): T {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(", ")}`);
  return raw as T;
}

const repoRoot = path.resolve(import.meta.dirname, "../../..");

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const mailAdapter = oneOf("MAIL_ADAPTER", ["local", "smtp"], "local", env);
  if (mailAdapter === "smtp" && !env.SMTP_URL) throw new Error("MAIL_ADAPTER=smtp needs SMTP_URL");
  return {
    port: int("PORT", 8080, env),
    host: env.HOST || "0.0.0.0",
    dataDir: path.resolve(env.DATA_DIR || "./data"),
    databaseUrl: env.DATABASE_URL || undefined,
    webDist: path.resolve(env.WEB_DIST || path.join(repoRoot, "apps/web/dist")),
    logLevel: env.LOG_LEVEL || "info",
    secretKey: env.SECRET_KEY || undefined,
    opsEmail: (env.OPS_EMAIL || "ops@tessera.local").toLowerCase(),
    opsPassword: env.OPS_PASSWORD || undefined,
    tokenTtlSeconds: int("TOKEN_TTL_SECONDS", 12 * 3600, env),
    mailAdapter,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || "Tessera <no-reply@tessera.local>",
    smsAdapter: oneOf("SMS_ADAPTER", ["local"], "local", env),
    argon2MemoryKib: int("ARGON2_MEMORY_KIB", 19456, env),
    argon2Iterations: int("ARGON2_ITERATIONS", 2, env),
  };
}
