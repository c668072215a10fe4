/** The filter types and values routes need, given by the service layer so that routes import nothing from `src/db`. */
export {
  FILTER_ACTIONS,
  FILTER_CONTEXTS,
  type Filter,
  type FilterAction,
  type FilterContext,
  type FilterKeyword,
  type FilterRow,
} from "../../db/repositories/filters.ts";
