type Argon2 = typeof import("@node-rs/argon2");
let argon2: Promise<Argon2> | undefined;
/** The native argon2 binding, loaded at the first sign-in or sign-up rather than at start-up. */
const loadArgon2 = (): Promise<Argon2> => {
  argon2 ??= import("@node-rs/argon2");
  return argon2;
};

/** argon2id's cost (PASSWORD_HASH_MEMORY_KIB, PASSWORD_HASH_ITERATIONS); parallelism stays 1. */
export interface PasswordHashParams {
  /** KiB of memory. */
  memoryCost: number;
  /** Passes over it. */
  timeCost: number;
}

/** The library's defaults, OWASP's recommended minimum for argon2id (m=19 MiB, t=2, p=1). */
export const DEFAULT_PASSWORD_HASH: PasswordHashParams = { memoryCost: 19_456, timeCost: 2 };

/** argon2id; a hash records its own parameters, so verifying one made with other parameters works. */
export const passwords = {
  hash: async (plain: string, params: PasswordHashParams = DEFAULT_PASSWORD_HASH): Promise<string> =>
    (await loadArgon2()).hash(plain, { memoryCost: params.memoryCost, timeCost: params.timeCost, parallelism: 1 }),
  verify: async (encoded: string, plain: string): Promise<boolean> => {
    try {
      return await (await loadArgon2()).verify(encoded, plain);
    } catch {
      return false;
    }
  },
};
