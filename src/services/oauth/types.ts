/** OAuth records as routes see them: the repository's row types, through the service layer. */
export type { AccessToken, Application } from "../../db/repositories/oauth.ts";
