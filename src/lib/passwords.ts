import { hash, verify } from "@node-rs/argon2";

/** argon2id with the library's defaults (OWASP's recommended parameters). */
export const passwords = {
  hash: (plain: string): Promise<string> => hash(plain),
  verify: async (encoded: string, plain: string): Promise<boolean> => {
    try {
      return await verify(encoded, plain);
    } catch {
      return false;
    }
  },
};
