/** What each scope lets an application do, in words for the consent page. */
const TOP_LEVEL: Record<string, string> = {
  read: "Read all of your account's data",
  write: "Change all of your account's data",
  follow: "Read and change who you follow, block and mute",
  push: "Receive push notifications for you",
  profile: "Read only your basic profile information",
  crypto: "Use end-to-end encryption (device keys and encrypted messages)",
  "admin:read": "Read all data on the server (moderators and administrators)",
  "admin:write": "Change all data on the server (moderators and administrators)",
};

export function scopeLabel(scope: string): string {
  const top = TOP_LEVEL[scope];
  if (top) return top;
  const m = /^(admin:)?(read|write):(.+)$/.exec(scope);
  if (!m) return scope;
  const what = m[3].replace(/_/g, " ");
  const verb = m[2] === "read" ? "Read" : "Change";
  return m[1] ? `${verb} the server's ${what} (moderation)` : `${verb} your ${what}`;
}
