import { authRevision } from "../../platform/auth/revision";

/**
 * Sessions resolved recently, by token hash, so a client's burst of requests does not look its token up
 * once per request (the lookup was one of every authenticated request's statements). An entry holds
 * until its deadline (never past the session's own expiry) or until authChanged() is called in this
 * process, whichever comes first. Only live sessions are kept: an unknown token is asked about again.
 */
export class SessionCache<T> {
  readonly #entries = new Map<string, { value: T; until: number; revision: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get(key: string, nowMs: number): T | undefined {
    const e = this.#entries.get(key);
    if (!e) return undefined;
    if (e.until <= nowMs || e.revision !== authRevision()) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /**
   * Keeps a lookup's result until `until`. `revisionBefore` is authRevision() read before the lookup
   * started: when something changed meanwhile, the result may already be stale and is not kept.
   */
  set(key: string, value: T, until: number, revisionBefore: number): void {
    if (revisionBefore !== authRevision()) return;
    // A bound on memory; clearing costs only a lookup per client.
    if (this.#entries.size >= this.maxEntries) this.#entries.clear();
    this.#entries.set(key, { value, until, revision: revisionBefore });
  }
}
