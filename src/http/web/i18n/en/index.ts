import { admin } from "./admin.ts";
import { admin_accounts } from "./admin-accounts.ts";
import { admin_dashboard } from "./admin-dashboard.ts";
import { admin_federation } from "./admin-federation.ts";
import { admin_reports } from "./admin-reports.ts";
import { admin_server } from "./admin-server.ts";
import { auth } from "./auth.ts";
import { client } from "./client.ts";
import { client_compose } from "./client-compose.ts";
import { client_pages } from "./client-pages.ts";
import { client_timelines } from "./client-timelines.ts";
import { common } from "./common.ts";
import { data } from "./data.ts";
import { feeds } from "./feeds.ts";
import { profiles } from "./profiles.ts";
import { security } from "./security.ts";
import { settings } from "./settings.ts";
import { site } from "./site.ts";

/** English, the complete table: every area's texts (one file per area of the web side). */
export const en = {
  ...common,
  ...site,
  ...profiles,
  ...feeds,
  ...auth,
  ...security,
  ...settings,
  ...data,
  ...admin,
  ...admin_dashboard,
  ...admin_reports,
  ...admin_accounts,
  ...admin_federation,
  ...admin_server,
  ...client,
  ...client_timelines,
  ...client_pages,
  ...client_compose,
} as const;
