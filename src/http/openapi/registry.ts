import { accountDocs } from "./routes/accounts.ts";
import { adminAccountActionDocs } from "./routes/admin-account-actions.ts";
import { adminAccountDocs } from "./routes/admin-accounts.ts";
import { adminBlockDocs } from "./routes/admin-blocks.ts";
import { adminDashboardDocs } from "./routes/admin-dashboard.ts";
import { adminFederationDocs } from "./routes/admin-federation.ts";
import { adminRoleDocs } from "./routes/admin-roles.ts";
import { adminTrendDocs } from "./routes/admin-trends.ts";
import { cryptoDocs } from "./routes/crypto.ts";
import { federationDocs } from "./routes/federation.ts";
import { filterDocs } from "./routes/filters.ts";
import { instanceDocs } from "./routes/instance.ts";
import { notificationDocs } from "./routes/notifications.ts";
import { oauthDocs } from "./routes/oauth.ts";
import { quoteDocs } from "./routes/quotes.ts";
import { statusDocs } from "./routes/statuses.ts";
import { timelineDocs } from "./routes/timelines.ts";
import { translationDocs } from "./routes/translation.ts";
import { trendDocs } from "./routes/trends.ts";
import { webAdminAccountDocs } from "./routes/web-admin-accounts.ts";
import { webAdminDashboardDocs } from "./routes/web-admin-dashboard.ts";
import { webAdminFederationDocs } from "./routes/web-admin-federation.ts";
import { webAdminReportDocs } from "./routes/web-admin-reports.ts";
import { webAdminServerDocs } from "./routes/web-admin-server.ts";
import { webAuthDocs } from "./routes/web-auth.ts";
import { webClientComposeDocs } from "./routes/web-client-compose.ts";
import { webClientPageDocs } from "./routes/web-client-pages.ts";
import { webClientTimelineDocs } from "./routes/web-client-timelines.ts";
import { webFeedDocs } from "./routes/web-feeds.ts";
import { webPageDocs } from "./routes/web-pages.ts";
import { webSecurityDocs } from "./routes/web-security.ts";
import type { DocArea, RouteDoc } from "./types.ts";

/** Every area of route descriptions (src/http/openapi/routes/<area>.ts). */
export const AREAS: readonly DocArea[] = [
  oauthDocs,
  accountDocs,
  statusDocs,
  quoteDocs,
  translationDocs,
  timelineDocs,
  trendDocs,
  notificationDocs,
  filterDocs,
  instanceDocs,
  cryptoDocs,
  federationDocs,
  adminAccountDocs,
  adminAccountActionDocs,
  adminFederationDocs,
  adminBlockDocs,
  adminDashboardDocs,
  adminRoleDocs,
  adminTrendDocs,
  webSecurityDocs,
  webAuthDocs,
  webFeedDocs,
  webPageDocs,
  webAdminDashboardDocs,
  webAdminReportDocs,
  webAdminAccountDocs,
  webAdminFederationDocs,
  webAdminServerDocs,
  webClientTimelineDocs,
  webClientPageDocs,
  webClientComposeDocs,
];

/** The descriptions keyed by `"METHOD /hono/path"`, each with its area's tag unless it names its own. */
export const ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = Object.fromEntries(
  AREAS.flatMap((a) => Object.entries(a.routes).map(([k, doc]) => [k, { ...doc, tags: doc.tags ?? [a.tag] }])),
);

/** The document's tags: one per area, then those only single routes name. */
export const AREA_TAGS: { name: string; description?: string }[] = (() => {
  const tags = new Map<string, string | undefined>(AREAS.map((a) => [a.tag, a.description]));
  for (const doc of Object.values(ROUTE_DOCS)) for (const t of doc.tags ?? []) if (!tags.has(t)) tags.set(t, undefined);
  for (const t of ["Placeholders", "Admin"]) if (!tags.has(t)) tags.set(t, undefined);
  return [...tags].map(([name, description]) => (description ? { name, description } : { name }));
})();
