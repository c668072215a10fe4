/** The one message of every write that cannot work yet (see the README's compatibility section). */
export const UNAVAILABLE = "This feature is not available on this server yet";
