/** The account and user records as routes see them: the repositories' row types, through the service layer. */
export type { Account } from "../../db/repositories/accounts.ts";
export type { User } from "../../db/repositories/users.ts";
