/**
 * A counter of changes to what a token resolves to: a session revoked, a user changed or disabled, a
 * merchant's roles changed. The code that writes these bumps it, so every cache of resolved sessions in
 * this process drops what it holds at once. Caches in other server processes do not see it: their
 * entries live only for SESSION_CACHE_MS.
 */
let revision = 0;

export function authRevision(): number {
  return revision;
}

export function authChanged(): void {
  revision++;
}

/**
 * How long a resolved session may be used without asking the database again. Short: it is how long a
 * session revoked through another server process may still be accepted here.
 */
export const SESSION_CACHE_MS = 1000;
