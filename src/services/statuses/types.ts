/** The status record as routes see it: the repository's row type, through the service layer. */
export type { Status, Visibility } from "../../db/repositories/statuses.ts";
