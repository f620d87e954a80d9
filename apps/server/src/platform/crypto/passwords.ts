import { hash, verify } from "@node-rs/argon2";

/** Argon2id (the `Algorithm.Argon2id` const enum of @node-rs/argon2; const enums do not cross isolatedModules). */
const ARGON2ID = 2;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Spends the time a real verification would, for unknown accounts, so timing tells nothing. */
  verifyDummy(password: string): Promise<void>;
}

export function createPasswordHasher(memoryCost: number, timeCost: number): PasswordHasher {
  const options = { algorithm: ARGON2ID, memoryCost, timeCost, parallelism: 1 };
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    verify: async (passwordHash, password) => {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false; // a malformed stored hash never authenticates
      }
    },
    verifyDummy: async (password) => {
      dummy ??= hash("tessera-dummy-password", options);
      await verify(await dummy, password).catch(() => false);
    },
  };
}
