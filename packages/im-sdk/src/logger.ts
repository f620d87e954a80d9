import { defaultStorage, type KeyValueStorage } from "./storage.js";

/** Log levels, most verbose first (spec 03 §4): trace, debug, info, warn, error, silent. Default warn. */
export const LOG_LEVELS = { TRACE: 0, DEBUG: 1, INFO: 2, WARN: 3, ERROR: 4, SILENT: 5 } as const;
export type LogLevel = (typeof LOG_LEVELS)[keyof typeof LOG_LEVELS];
const NAMES = ["trace", "debug", "info", "warn", "error"] as const;

/** The logger cache keeps at most this many bytes (UTF-16 code units) of formatted lines (spec 03 §9). */
export const LOG_CACHE_MAX = 3_145_728;
export const LOG_LEVEL_KEY = "tessera-im-sdk:loglevel";

/**
 * A levelled logger. The chosen level is persisted (localStorage in browsers) and read back by the next
 * logger; every line at or above the level is also kept in a capped in-memory cache (getLogs) so that an
 * app can attach recent logs to a report.
 */
export class Logger {
  private level: LogLevel;
  private cache: string[] = [];
  private cacheSize = 0;
  constructor(
    private readonly storage: KeyValueStorage = defaultStorage(),
    private readonly sink: Pick<Console, "debug" | "info" | "warn" | "error"> | null = globalThis.console ?? null,
    readonly maxCache: number = LOG_CACHE_MAX,
  ) {
    const saved = Number(storage.getItem(LOG_LEVEL_KEY));
    this.level =
      storage.getItem(LOG_LEVEL_KEY) !== null && saved >= 0 && saved <= 5 ? (saved as LogLevel) : LOG_LEVELS.WARN;
  }

  setLevel(level: LogLevel | keyof typeof LOG_LEVELS | Lowercase<keyof typeof LOG_LEVELS>): void {
    const n = typeof level === "number" ? level : LOG_LEVELS[level.toUpperCase() as keyof typeof LOG_LEVELS];
    if (n === undefined || n < 0 || n > 5) throw new Error(`unknown log level ${String(level)}`);
    this.level = n;
    this.storage.setItem(LOG_LEVEL_KEY, String(n));
  }

  getLevel(): LogLevel {
    return this.level;
  }

  trace(...args: unknown[]): void {
    this.log(0, args);
  }
  debug(...args: unknown[]): void {
    this.log(1, args);
  }
  info(...args: unknown[]): void {
    this.log(2, args);
  }
  warn(...args: unknown[]): void {
    this.log(3, args);
  }
  error(...args: unknown[]): void {
    this.log(4, args);
  }

  /** The cached lines, oldest first. */
  getLogs(): string[] {
    return [...this.cache];
  }

  clearLogs(): void {
    this.cache = [];
    this.cacheSize = 0;
  }

  private log(level: 0 | 1 | 2 | 3 | 4, args: unknown[]): void {
    if (level < this.level) return;
    const name = NAMES[level];
    const text = args
      .map((a) => (typeof a === "string" ? a : a instanceof Error ? `${a.name}: ${a.message}` : safeJson(a)))
      .join(" ");
    const line = `${new Date().toISOString()} [${name}] ${text}`;
    this.cache.push(line);
    this.cacheSize += line.length;
    while (this.cacheSize > this.maxCache && this.cache.length > 0) this.cacheSize -= this.cache.shift()!.length;
    if (!this.sink) return;
    const method = level <= 1 ? "debug" : name === "trace" ? "debug" : (name as "info" | "warn" | "error");
    this.sink[method](`[im-sdk] ${text}`);
  }
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** The shared logger (the published client's `logger`). */
export const logger = new Logger();
