import { auth } from "./auth.ts";
import { common } from "./common.ts";
import { data } from "./data.ts";
import { feeds } from "./feeds.ts";
import { profiles } from "./profiles.ts";
import { security } from "./security.ts";
import { settings } from "./settings.ts";
import { site } from "./site.ts";

/** English, the complete table: every area's texts (one file per area of the web side). */
export const en = { ...common, ...site, ...profiles, ...feeds, ...auth, ...security, ...settings, ...data } as const;
