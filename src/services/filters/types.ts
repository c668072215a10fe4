/** Filter types as routes see them: the repository's, through the service layer. */
export type { FilterContext } from "../../db/repositories/filters.ts";
