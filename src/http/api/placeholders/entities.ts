/** The one message of every write that cannot work yet (see docs/compatibility.md). */
export const UNAVAILABLE = "This feature is not available on this server yet";
