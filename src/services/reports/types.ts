/** The report record as routes see it: the repository's row type, through the service layer. */
export type { Report } from "../../db/repositories/reports.ts";
