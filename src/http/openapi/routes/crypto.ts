import type { DocArea } from "../types.ts";

/** End-to-end encryption. */
export const cryptoDocs: DocArea = {
  tag: "Encrypted messages",
  description: "End-to-end encryption: device keys and encrypted messages (Mastodon 3.3 to 4.2)",
  routes: {},
};
