import type { Context, Hono } from "hono";
import {
  type BulkImport,
  type BulkImportType,
  cancelImport,
  confirmImport,
  createImport,
  failuresCsv,
  IMPORT_FILE_SIZE_LIMIT,
  IMPORT_ROWS_LIMIT,
  IMPORT_TYPES,
  type ImportProblem,
  ownImport,
  recentImports,
} from "../../../services/data/imports.ts";
import { throttle } from "../../middleware/rate-limit.ts";
import type { HonoEnv } from "../../types.ts";
import { field, readForm, requireUser, type SignedIn } from "../guard.ts";
import { type MessageKey, type Translate, t } from "../i18n/index.ts";
import { html, type SafeHtml } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import { sendSettingsPage } from "../settings/layout.ts";
import { csrfField, fieldError, invalidAttrs, num, when } from "./format.ts";

const HERE = "/settings/imports";

const typeLabel = (tr: Translate, type: BulkImportType) => tr(`data.import.type.${type}` as MessageKey);
const stateLabel = (tr: Translate, imp: BulkImport) => tr(`data.import.state.${imp.state}` as MessageKey);

function notFound(c: Context<HonoEnv>): Response {
  const tr = t(c);
  return errorPage(c, 404, tr("common.not_found"), tr("common.not_found_text"));
}

function problemText(tr: Translate, p: ImportProblem): string {
  if (p.code === "invalid_csv") return tr("data.import.error.invalid_csv", { detail: p.detail });
  return tr(`data.import.error.${p.code}` as MessageKey, { rows: num(tr, IMPORT_ROWS_LIMIT) });
}

/** Progress of an import, as text (processed of total, imported). */
function progressText(tr: Translate, imp: BulkImport): string {
  return tr("data.import.progress", {
    processed: num(tr, Math.min(imp.processedItems, imp.totalItems)),
    total: num(tr, imp.totalItems),
    imported: num(tr, imp.importedItems),
  });
}

function failuresCell(tr: Translate, imp: BulkImport): SafeHtml {
  if (imp.state !== "finished") return html``;
  const failed = Math.max(imp.totalItems - imp.importedItems, 0);
  if (failed === 0) return html`${tr("data.import.no_failures")}`;
  return html`<a href="${HERE}/${imp.id}/failures.csv">${tr("data.import.failures_link", { count: num(tr, failed) })}</a>`;
}

interface FormState {
  type?: string;
  mode?: string;
  error?: { field: "type" | "data"; message: string };
}

async function indexPage(c: Context<HonoEnv>, me: SignedIn, form: FormState = {}, status?: number, notice?: string) {
  const tr = t(c);
  const imports = await recentImports(c.env.ctx, me.account);
  const running = imports.some((i) => i.state === "scheduled" || i.state === "in_progress");
  const typeError = form.error?.field === "type" ? form.error.message : undefined;
  const dataError = form.error?.field === "data" ? form.error.message : undefined;
  const mode = form.mode === "overwrite" ? "overwrite" : "merge";
  const table =
    imports.length === 0
      ? html`<p class="muted">${tr("data.import.none")}</p>`
      : html`<div class="data-scroll"><table class="data-table"><thead><tr><th scope="col">${tr("data.import.col.type")}</th><th scope="col">${tr("data.import.col.state")}</th><th scope="col">${tr("data.import.col.created")}</th><th scope="col">${tr("data.import.col.progress")}</th><th scope="col">${tr("data.import.col.failures")}</th></tr></thead><tbody>
${imports.map(
  (i) =>
    html`<tr><td><a href="${HERE}/${i.id}">${typeLabel(tr, i.type)}</a></td><td>${stateLabel(tr, i)}</td><td>${when(tr, i.createdAt)}</td><td>${progressText(tr, i)}</td><td>${failuresCell(tr, i)}</td></tr>\n`,
)}</tbody></table></div>`;
  const body = html`<h1>${tr("data.import.title")}</h1>
<p>${tr("data.import.intro")}</p>
<form method="post" action="${HERE}" enctype="multipart/form-data">
${csrfField(me.csrf)}
<label for="import-type">${tr("data.import.type")}</label>
<select id="import-type" name="type" required${invalidAttrs("import-type-error", typeError)}>
${IMPORT_TYPES.map((type) => html`<option value="${type}"${form.type === type ? html` selected` : ""}>${typeLabel(tr, type)}</option>`)}
</select>
${fieldError("import-type-error", typeError)}
<fieldset><legend>${tr("data.import.mode")}</legend>
<label class="check"><input type="radio" name="mode" value="merge"${mode === "merge" ? html` checked` : ""}> <span>${tr("data.import.mode.merge")} <span class="hint">${tr("data.import.mode.merge_hint")}</span></span></label>
<label class="check"><input type="radio" name="mode" value="overwrite"${mode === "overwrite" ? html` checked` : ""}> <span>${tr("data.import.mode.overwrite")} <span class="hint">${tr("data.import.mode.overwrite_hint")}</span></span></label>
</fieldset>
<label for="import-data">${tr("data.import.file")}</label>
<input type="file" id="import-data" name="data" accept=".csv,text/csv" required${invalidAttrs("import-data-error", dataError, "import-data-hint")}>
<p class="hint" id="import-data-hint">${tr("data.import.file_hint", { rows: num(tr, IMPORT_ROWS_LIMIT) })}</p>
${fieldError("import-data-error", dataError)}
<button type="submit">${tr("data.import.upload")}</button>
</form>
<h2>${tr("data.import.recent")}</h2>
<div id="imports" aria-live="polite"${running ? html` data-refresh="3"` : ""}>
${table}
</div>`;
  return sendSettingsPage(c, {
    title: tr("data.import.title"),
    body,
    current: HERE,
    status,
    notice,
    scripts: running ? ["data-refresh.js"] : undefined,
  });
}

function confirmPage(c: Context<HonoEnv>, me: SignedIn, imp: BulkImport, error?: string): Response {
  const tr = t(c);
  const vars = { count: num(tr, imp.totalItems), file: imp.originalFilename || "CSV", type: typeLabel(tr, imp.type) };
  const body = html`<h1>${tr("data.import.confirm_title")}</h1>
${error ? html`<p class="error" role="alert">${error}</p>` : ""}
<p>${imp.overwrite ? tr("data.import.confirm_text.overwrite", vars) : tr("data.import.confirm_text.merge", vars)}</p>
${imp.likelyMismatched ? html`<p class="error" role="alert">${tr("data.import.mismatched")}</p>` : ""}
<div class="actions">
<form method="post" action="${HERE}/${imp.id}/confirm">${csrfField(me.csrf)}<button type="submit">${tr("data.import.confirm")}</button></form>
<form method="post" action="${HERE}/${imp.id}/delete">${csrfField(me.csrf)}<button type="submit" class="secondary">${tr("data.import.cancel")}</button></form>
</div>`;
  return sendSettingsPage(c, {
    title: tr("data.import.confirm_title"),
    body,
    current: HERE,
    status: error ? 409 : undefined,
  });
}

function detailPage(c: Context<HonoEnv>, imp: BulkImport, notice?: string): Response {
  const tr = t(c);
  const running = imp.state !== "finished";
  const total = Math.max(imp.totalItems, 1);
  const title = tr("data.import.detail_title", { file: imp.originalFilename || "CSV" });
  const body = html`<h1>${title}</h1>
<div id="import-progress" aria-live="polite"${running ? html` data-refresh="2"` : ""}>
<dl class="data-facts">
<dt>${tr("data.import.col.type")}</dt><dd>${typeLabel(tr, imp.type)} (${tr(imp.overwrite ? "data.import.mode.overwrite" : "data.import.mode.merge")})</dd>
<dt>${tr("data.import.col.state")}</dt><dd class="data-state">${stateLabel(tr, imp)}</dd>
<dt>${tr("data.import.col.created")}</dt><dd>${when(tr, imp.createdAt)}</dd>
<dt>${tr("data.import.col.progress")}</dt><dd><progress max="${total}" value="${Math.min(imp.processedItems, total)}" aria-labelledby="import-progress-text"></progress> <span id="import-progress-text">${progressText(tr, imp)}</span></dd>
<dt>${tr("data.import.col.failures")}</dt><dd>${failuresCell(tr, imp)}</dd>
</dl>
</div>
<p><a href="${HERE}">${tr("data.import.back")}</a></p>`;
  return sendSettingsPage(c, {
    title,
    body,
    current: HERE,
    notice,
    scripts: running ? ["data-refresh.js"] : undefined,
  });
}

/** Reads the import's id from the path: the signed-in account's import, or nothing. */
async function loadImport(c: Context<HonoEnv>, me: SignedIn): Promise<BulkImport | undefined> {
  return ownImport(c.env.ctx, me.account, c.req.param("id") ?? "");
}

/** `/settings/imports`: upload, confirmation, progress, failures (Mastodon 4.1's BulkImport). */
export function importRoutes(app: Hono<HonoEnv>): void {
  app.get(HERE, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return indexPage(c, me);
  });

  app.post(HERE, throttle("web_import", 30, 3600_000), async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const tr = t(c);
    // Refused before the body is read when it says it is too large (the file limit plus the form's fields).
    const length = Number(c.req.header("content-length") ?? "0");
    if (length > IMPORT_FILE_SIZE_LIMIT + 64 * 1024) {
      return indexPage(c, me, { error: { field: "data", message: tr("data.import.error.too_large") } }, 413);
    }
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const type = field(params, "type", 50);
    const mode = field(params, "mode", 20);
    const state: FormState = { type, mode };
    if (!(IMPORT_TYPES as readonly string[]).includes(type)) {
      return indexPage(c, me, { ...state, error: { field: "type", message: tr("data.import.error.bad_type") } }, 422);
    }
    const file = params.data;
    if (!(file instanceof File) || file.size === 0) {
      return indexPage(c, me, { ...state, error: { field: "data", message: tr("data.import.error.no_file") } }, 422);
    }
    const out = await createImport(c.env.ctx, me.account, {
      type: type as BulkImportType,
      overwrite: mode === "overwrite",
      filename: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    if ("code" in out) {
      return indexPage(c, me, { ...state, error: { field: "data", message: problemText(tr, out) } }, 422);
    }
    return c.redirect(`${HERE}/${out.id}`, 303);
  });

  app.get(`${HERE}/:id`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const imp = await loadImport(c, me);
    if (!imp) return notFound(c);
    const tr = t(c);
    if (imp.state === "unconfirmed") return confirmPage(c, me, imp);
    return detailPage(c, imp, c.req.query("confirmed") === "1" ? tr("data.import.confirmed") : undefined);
  });

  app.post(`${HERE}/:id/confirm`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const imp = await loadImport(c, me);
    if (!imp) return notFound(c);
    if (!(await confirmImport(c.env.ctx, imp))) return detailPage(c, imp, t(c)("data.import.error.not_unconfirmed"));
    return c.redirect(`${HERE}/${imp.id}?confirmed=1`, 303);
  });

  app.post(`${HERE}/:id/delete`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const imp = await loadImport(c, me);
    if (!imp) return notFound(c);
    if (!(await cancelImport(c.env.ctx, imp))) return detailPage(c, imp, t(c)("data.import.error.not_unconfirmed"));
    return indexPage(c, me, {}, undefined, t(c)("data.import.cancelled"));
  });

  app.get(`${HERE}/:id/failures.csv`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const imp = await loadImport(c, me);
    if (imp?.state !== "finished") return notFound(c);
    const { filename, text } = await failuresCsv(c.env.ctx, imp);
    return c.body(text, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });
}
