import type { Context, Hono } from "hono";
import {
  ARCHIVE_INTERVAL_MS,
  archiveDownload,
  archivesOf,
  mayRequestArchive,
  requestArchive,
} from "../../../services/data/archive.ts";
import {
  CSV_EXPORTS,
  type CsvExport,
  csvExportStream,
  EXPORT_FILENAMES,
  exportSummary,
} from "../../../services/data/exports.ts";
import { throttle } from "../../middleware/rate-limit.ts";
import type { HonoEnv } from "../../types.ts";
import { readForm, requireUser, type SignedIn } from "../guard.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import { sendSettingsPage } from "../settings/layout.ts";
import { csrfField, dateText, humanSize, num, when } from "./format.ts";

const HERE = "/settings/export";

const LABELS: Record<CsvExport, MessageKey> = {
  follows: "data.export.follows",
  lists: "data.export.lists",
  blocks: "data.export.blocks",
  mutes: "data.export.mutes",
  domain_blocks: "data.export.domain_blocks",
  bookmarks: "data.export.bookmarks",
};

function notFound(c: Context<HonoEnv>): Response {
  const tr = t(c);
  return errorPage(c, 404, tr("common.not_found"), tr("common.not_found_text"));
}

async function exportPage(c: Context<HonoEnv>, me: SignedIn, notice?: string, status?: number): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const [summary, archives] = await Promise.all([exportSummary(ctx, me.account), archivesOf(ctx, me.user)]);
  const counts: Record<CsvExport, number> = {
    follows: summary.follows,
    lists: summary.lists,
    blocks: summary.blocks,
    mutes: summary.mutes,
    domain_blocks: summary.domainBlocks,
    bookmarks: summary.bookmarks,
  };
  const rows = html`<tr><th scope="row">${tr("data.export.storage")}</th><td>${humanSize(tr, summary.storage)}</td><td></td></tr>
<tr><th scope="row">${tr("data.export.statuses")}</th><td>${num(tr, summary.statuses)}</td><td></td></tr>
<tr><th scope="row">${tr("data.export.followers")}</th><td>${num(tr, summary.followers)}</td><td></td></tr>
${CSV_EXPORTS.map(
  (kind) =>
    html`<tr><th scope="row">${tr(LABELS[kind])}</th><td>${num(tr, counts[kind])}</td><td><a href="/settings/exports/${kind}.csv" download="${EXPORT_FILENAMES[kind]}" aria-label="${tr("data.export.csv_label", { what: tr(LABELS[kind]) })}">${tr("data.export.csv")}</a></td></tr>\n`,
)}`;
  const preparing = archives.some((b) => !b.processed);
  const last = archives[0];
  const canRequest = mayRequestArchive(archives);
  const list =
    archives.length === 0
      ? html`<p class="muted">${tr("data.archive.none")}</p>`
      : html`<div class="data-scroll"><table class="data-table"><thead><tr><th scope="col">${tr("data.archive.created")}</th><th scope="col">${tr("data.archive.file")}</th></tr></thead><tbody>
${archives.map(
  (b) =>
    html`<tr><td>${when(tr, b.createdAt)}</td><td>${
      b.processed
        ? html`<a href="/settings/export/archive/${b.id}">${tr("data.archive.ready", { size: humanSize(tr, b.size ?? 0) })}</a>`
        : html`<span class="data-pending">${tr("data.archive.preparing")}</span>`
    }</td></tr>\n`,
)}</tbody></table></div>`;
  const request = canRequest
    ? html`<form method="post" action="${HERE}">${csrfField(me.csrf)}<button type="submit">${tr("data.archive.request")}</button></form>`
    : html`<p class="muted">${tr("data.archive.too_soon", {
        date: dateText(tr, new Date(Date.parse(last?.createdAt ?? new Date().toISOString()) + ARCHIVE_INTERVAL_MS)),
      })}</p>`;
  const body = html`<h1>${tr("data.export.title")}</h1>
<p>${tr("data.export.intro")}</p>
<div class="data-scroll"><table class="data-table"><thead><tr><th scope="col">${tr("data.export.what")}</th><th scope="col">${tr("data.export.count")}</th><th scope="col">${tr("data.export.download")}</th></tr></thead>
<tbody>
${rows}</tbody></table></div>
<h2>${tr("data.archive.title")}</h2>
<p class="hint">${tr("data.archive.hint")}</p>
<div id="archives" aria-live="polite"${preparing ? html` data-refresh="3"` : ""}>
${list}
</div>
${request}`;
  return sendSettingsPage(c, {
    title: tr("data.export.title"),
    body,
    current: HERE,
    notice,
    status,
    scripts: preparing ? ["data-refresh.js"] : undefined,
  });
}

/** `/settings/export`: counts, CSV downloads, the archive. */
export function exportRoutes(app: Hono<HonoEnv>): void {
  app.get(HERE, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return exportPage(c, me);
  });

  // At most one archive a week is enforced by the service; this bounds attempts.
  app.post(HERE, throttle("web_archive", 10, 3600_000), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const tr = t(c);
    const out = await requestArchive(c.env.ctx, me.user);
    if ("retryAt" in out)
      return exportPage(c, me, tr("data.archive.too_soon", { date: dateText(tr, out.retryAt) }), 429);
    return exportPage(c, me, tr("data.archive.requested"));
  });

  app.get("/settings/export/archive/:id", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const file = await archiveDownload(c.env.ctx, me.user, c.req.param("id"));
    if (!file) return notFound(c);
    return c.body(file.stream, 200, {
      "Content-Type": "application/zip",
      "Content-Length": String(file.size),
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });

  app.get("/settings/exports/:file", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const name = c.req.param("file").replace(/\.csv$/, "");
    if (!c.req.param("file").endsWith(".csv") || !(CSV_EXPORTS as readonly string[]).includes(name)) {
      return notFound(c);
    }
    const kind = name as CsvExport;
    return c.body(csvExportStream(c.env.ctx, me.account, kind), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${EXPORT_FILENAMES[kind]}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
