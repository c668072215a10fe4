import { open, seal } from "../../lib/sealed-box.ts";

/**
 * The access token a push subscription was made with, sealed (lib/sealed-box.ts). Mastodon's
 * push payload carries the token so that the client can fetch the notification; Gannet stores
 * tokens only as hashes, so the subscription keeps its own sealed copy (and the Development page
 * its app's secret and the owner's token), unreadable from a copy of the database without the
 * secret key.
 */
const PURPOSE = "gannet web push token";

export const sealToken = (secretKey: string, token: string): string => seal(secretKey, PURPOSE, token);

/** The token, or undefined when the box was sealed with another secret key. */
export const openToken = (secretKey: string, box: string): string | undefined => open(secretKey, PURPOSE, box);
