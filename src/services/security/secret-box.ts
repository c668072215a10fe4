import { open, seal } from "../../lib/sealed-box.ts";

/**
 * Second-factor secrets at rest (lib/sealed-box.ts): a copy of the database alone does not give
 * anyone the TOTP secrets. Changing SECRET_KEY makes them unreadable (their users then sign in
 * with a recovery code, or an admin turns two-factor sign-in off).
 */
const PURPOSE = "gannet second factor secret";

export const sealSecret = (secretKey: string, secret: string): string => seal(secretKey, PURPOSE, secret);

/** The secret, or undefined when the box was sealed with another secret key (or is damaged). */
export const openSecret = (secretKey: string, box: string): string | undefined => open(secretKey, PURPOSE, box);
