/** The status types routes need, given by the service layer so that routes import nothing from `src/db`. */
export type { Status, Visibility } from "../../db/repositories/statuses.ts";
