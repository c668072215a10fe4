import type { Context, Hono } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import * as filters from "../../../services/filters/filters.ts";
import {
  isBlank,
  KEYWORD_MAX,
  Problems,
  parseAction,
  parseContext,
  parseExpiresIn,
  parseKeywordChanges,
  parseTitle,
  TITLE_MAX,
} from "../../api/v2/filters/params.ts";
import type { Params } from "../../oauth/params.ts";
import type { HonoEnv } from "../../types.ts";
import { readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import { errorPage } from "../pages/notices.ts";
import {
  csrfField,
  describedBy,
  type FieldProblems,
  fieldError,
  formatDate,
  hasProblems,
  list,
  nested,
  problemSummary,
  savedNotice,
  text,
} from "./forms.ts";
import { sendSettingsPage } from "./layout.ts";

const PATH = "/filters";
/** Mastodon's expiry choices, in seconds. */
const EXPIRES_IN = [1800, 3600, 21600, 43200, 86400, 604800] as const;
/** Empty keyword rows offered by the form (more can be added after saving). */
const BLANK_KEYWORD_ROWS = 3;

interface KeywordRow {
  id?: string;
  keyword: string;
  wholeWord: boolean;
  destroy: boolean;
}

interface FilterEntity {
  id: string;
  title: string;
  context: filters.FilterContext[];
  filter_action: filters.FilterAction;
  expires_at: string | null;
  keywords: { keyword: string }[];
}

interface FilterValues {
  title: string;
  context: string[];
  action: string;
  /** Seconds as posted, "" for never, "keep" for the current expiry. */
  expiresIn: string;
  keywords: KeywordRow[];
}

const notFoundPage = (c: Context<HonoEnv>) => {
  const tr = t(c);
  return errorPage(c, 404, tr("common.not_found"), tr("common.not_found_text"));
};

async function listPage(c: Context<HonoEnv>, me: SignedIn): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  // The v2 API's Filter entities: title, context, filter_action, expires_at, keywords.
  const own = (await filters.accountFiltersJson(ctx, me.account.id)) as unknown as FilterEntity[];
  const now = new Date().toISOString();
  const body = html`<h1>${tr("settings.filters.title")}</h1>
<p>${tr("settings.filters.intro")}</p>
<p><a class="button" href="/filters/new">${tr("settings.filters.new")}</a></p>
${
  own.length === 0
    ? html`<p class="muted">${tr("settings.filters.none")}</p>`
    : html`<ul class="settings-list">
${own.map((f) => {
  const words = f.keywords.map((k) => k.keyword);
  const expired = f.expires_at !== null && f.expires_at <= now;
  return html`<li class="settings-item">
<h2>${f.title}</h2>
<p class="muted">${f.context.map((x) => tr(`settings.filters.context.${x}`)).join(", ")} · ${tr(`settings.filters.action.${f.filter_action}`)} · ${
    f.expires_at === null
      ? tr("settings.filters.never_expires")
      : expired
        ? tr("settings.filters.expired")
        : tr("settings.filters.expires_at", { date: formatDate(tr.locale, f.expires_at, true) })
  }</p>
${words.length > 0 ? html`<p>${tr.plural("settings.filters.keywords_count", words.length)}: ${words.join(", ")}</p>` : ""}
<div class="actions">
<a href="/filters/${f.id}/edit">${tr("settings.filters.edit")}<span class="visually-hidden"> ${f.title}</span></a>
<form method="post" action="/filters/${f.id}/delete">${csrfField(me.csrf)}<button type="submit" class="link">${tr("common.delete")}<span class="visually-hidden"> ${f.title}</span></button></form>
</div>
</li>`;
})}
</ul>`
}`;
  return sendSettingsPage(c, { title: tr("settings.filters.title"), body, current: PATH, notice: savedNotice(c) });
}

function formPage(
  c: Context<HonoEnv>,
  me: SignedIn,
  v: FilterValues,
  opts: { filter?: filters.Filter; problems?: FieldProblems },
): Response {
  const tr = t(c);
  const p = opts.problems ?? {};
  const editing = opts.filter;
  const action = editing ? `/filters/${editing.id}` : PATH;
  const title = editing ? tr("settings.filters.edit_title") : tr("settings.filters.new_title");
  const blank = (): KeywordRow => ({ keyword: "", wholeWord: true, destroy: false });
  const rows: KeywordRow[] = [...v.keywords, ...Array.from({ length: BLANK_KEYWORD_ROWS }, blank)];
  const hasExpiry = editing?.expiresAt != null;
  const body = html`<h1>${title}</h1>
${problemSummary(c, opts.problems)}
<form method="post" action="${action}" class="settings-form">
${csrfField(me.csrf)}
<label for="title">${tr("settings.filters.field_title")}</label>
<input type="text" id="title" name="title" value="${v.title}" maxlength="${TITLE_MAX}" required${describedBy("title", p.title)}>
${fieldError("title", p.title)}
<label for="expires_in">${tr("settings.filters.expires_in")}</label>
<select id="expires_in" name="expires_in"${describedBy("expires_in", p.expires_in)}>
${hasExpiry ? html`<option value="keep"${v.expiresIn === "keep" ? html` selected` : ""}>${tr("settings.filters.keep_expiry", { date: formatDate(tr.locale, editing?.expiresAt, true) })}</option>` : ""}
<option value=""${v.expiresIn === "" ? html` selected` : ""}>${tr("settings.filters.never")}</option>
${EXPIRES_IN.map((s) => html`<option value="${s}"${v.expiresIn === String(s) ? html` selected` : ""}>${tr(`settings.filters.expires.${s}`)}</option>`)}
</select>
${fieldError("expires_in", p.expires_in)}
<fieldset${describedBy("context", p.context, true)}>
<legend>${tr("settings.filters.field_context")}</legend>
<p class="hint" id="context-hint">${tr("settings.filters.context_hint")}</p>
${fieldError("context", p.context)}
${filters.FILTER_CONTEXTS.map(
  (x) =>
    html`<label class="check" for="context_${x}"><input type="checkbox" id="context_${x}" name="context[]" value="${x}"${v.context.includes(x) ? html` checked` : ""}><span>${tr(`settings.filters.context.${x}`)}</span></label>`,
)}
</fieldset>
<fieldset${describedBy("filter_action", p.filter_action)}>
<legend>${tr("settings.filters.field_action")}</legend>
${filters.FILTER_ACTIONS.map(
  (x) =>
    html`<label class="check" for="action_${x}"><input type="radio" id="action_${x}" name="filter_action" value="${x}"${v.action === x ? html` checked` : ""}><span>${tr(`settings.filters.action.${x}`)}<span class="hint">${tr(`settings.filters.action.${x}_hint`)}</span></span></label>`,
)}
${fieldError("filter_action", p.filter_action)}
</fieldset>
<fieldset${describedBy("keywords", p.keywords, true)}>
<legend>${tr("settings.filters.keywords")}</legend>
<p class="hint" id="keywords-hint">${tr("settings.filters.keywords_hint")}</p>
${fieldError("keywords", p.keywords)}
<table class="keywords">
<thead><tr><th scope="col">${tr("settings.filters.keyword")}</th><th scope="col">${tr("settings.filters.whole_word")}</th>${editing ? html`<th scope="col">${tr("settings.filters.remove")}</th>` : ""}</tr></thead>
<tbody>
${rows.map(
  (k, i) => html`<tr>
<td>${k.id ? html`<input type="hidden" name="keywords_attributes[${i}][id]" value="${k.id}">` : ""}<input type="text" name="keywords_attributes[${i}][keyword]" value="${k.keyword}" maxlength="${KEYWORD_MAX}" aria-label="${tr("settings.filters.keyword_n", { n: i + 1 })}"></td>
<td><input type="checkbox" name="keywords_attributes[${i}][whole_word]" value="1"${k.wholeWord ? html` checked` : ""} aria-label="${tr("settings.filters.whole_word_n", { n: i + 1 })}"></td>
${editing ? html`<td>${k.id ? html`<input type="checkbox" name="keywords_attributes[${i}][_destroy]" value="1"${k.destroy ? html` checked` : ""} aria-label="${tr("settings.filters.remove_n", { n: i + 1 })}">` : ""}</td>` : ""}
</tr>`,
)}
</tbody>
</table>
</fieldset>
<div class="actions"><button type="submit">${editing ? tr("common.save") : tr("settings.filters.create")}</button> <a href="${PATH}">${tr("common.cancel")}</a></div>
</form>`;
  return sendSettingsPage(c, { title, body, current: PATH, status: hasProblems(opts.problems) ? 422 : 200 });
}

function postedValues(params: Params): FilterValues {
  const raw = nested(params, "keywords_attributes");
  const entries = raw && typeof raw === "object" ? Object.entries(raw as Record<string, unknown>).slice(0, 200) : [];
  const keywords: KeywordRow[] = entries.map(([i]) => ({
    id: text(nested(params, "keywords_attributes", i, "id"), 30) || undefined,
    keyword: text(nested(params, "keywords_attributes", i, "keyword"), 1000),
    wholeWord: !isBlank(nested(params, "keywords_attributes", i, "whole_word")),
    destroy: !isBlank(nested(params, "keywords_attributes", i, "_destroy")),
  }));
  return {
    title: text(params.title, 1000),
    context: list(params.context, 20),
    action: text(params.filter_action, 20),
    expiresIn: text(params.expires_in, 20),
    // New rows left blank are not keywords.
    keywords: keywords.filter((k) => k.id !== undefined || k.keyword.trim() !== ""),
  };
}

/** The form checked as the v2 filters API checks it, each problem next to its field. */
function check(v: FilterValues, known: ReadonlySet<string>, current: filters.Filter | undefined) {
  const problems: FieldProblems = {};
  const on = <T>(field: string, f: (p: Problems) => T): T => {
    const p = new Problems();
    const out = f(p);
    if (p.list.length > 0) problems[field] = p.list;
    return out;
  };
  const title = on("title", (p) => parseTitle(v.title, p));
  const context = on("context", (p) => parseContext(v.context, p));
  const action = on("filter_action", (p) => parseAction(v.action || "warn", p));
  const offered = v.expiresIn === "" || EXPIRES_IN.some((s) => String(s) === v.expiresIn);
  const expiresAt =
    v.expiresIn === "keep" && current
      ? current.expiresAt
      : on("expires_in", (p) => {
          if (offered) return parseExpiresIn(v.expiresIn, p, Date.now());
          p.add("Expires in is invalid");
          return undefined;
        });
  let changes: filters.KeywordChange[] = [];
  try {
    changes = on("keywords", (p) =>
      parseKeywordChanges(
        v.keywords.map((k) => ({ id: k.id, keyword: k.keyword, whole_word: k.wholeWord, _destroy: k.destroy })),
        p,
        known,
      ),
    );
  } catch (e) {
    // A keyword id that is not one of this filter's, or too many keywords.
    if (!(e instanceof ApiError)) throw e;
    problems.keywords = [...(problems.keywords ?? []), e.message.replace(/^Validation failed: /, "")];
  }
  if (hasProblems(problems)) return { problems };
  const row = { title, context, action, expiresAt: expiresAt ?? null } as filters.FilterRow;
  return { row, changes };
}

async function ownFilter(c: Context<HonoEnv>, me: SignedIn): Promise<filters.Filter | undefined> {
  const id = c.req.param("id") ?? "";
  if (!/^\d{1,20}$/.test(id)) return undefined;
  try {
    return await filters.ownedFilter(c.env.ctx, me.account.id, id);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

export function filterRoutes(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.get("/filters/new", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return formPage(c, me, { title: "", context: ["home"], action: "warn", expiresIn: "", keywords: [] }, {});
  });

  app.post(PATH, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const v = postedValues(params);
    const checked = check(v, new Set(), undefined);
    if (checked.problems) return formPage(c, me, v, { problems: checked.problems });
    const keywords = checked.changes
      .filter((k) => k.keyword !== undefined)
      .map((k) => ({ keyword: k.keyword as string, wholeWord: k.wholeWord ?? false }));
    await filters.createFilter(c.env.ctx, me.account.id, checked.row, keywords);
    return c.redirect(`${PATH}?saved=1`, 303);
  });

  app.get("/filters/:id/edit", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const filter = await ownFilter(c, me);
    if (!filter) return notFoundPage(c);
    const keywords = await filters.filterKeywords(c.env.ctx, filter);
    const v: FilterValues = {
      title: filter.title,
      context: filter.context,
      action: filter.action,
      expiresIn: filter.expiresAt === null ? "" : "keep",
      keywords: keywords.map((k) => ({ id: k.id, keyword: k.keyword, wholeWord: k.wholeWord, destroy: false })),
    };
    return formPage(c, me, v, { filter });
  });

  app.post("/filters/:id", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const filter = await ownFilter(c, me);
    if (!filter) return notFoundPage(c);
    const ctx = c.env.ctx;
    const known = new Set((await filters.filterKeywords(ctx, filter)).map((k) => k.id));
    const v = postedValues(params);
    const checked = check(v, known, filter);
    if (checked.problems) return formPage(c, me, v, { filter, problems: checked.problems });
    await filters.updateFilter(ctx, filter, checked.row, checked.changes);
    return c.redirect(`${PATH}?saved=1`, 303);
  });

  app.post("/filters/:id/delete", async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const filter = await ownFilter(c, me);
    if (!filter) return notFoundPage(c);
    await filters.deleteFilter(c.env.ctx, filter);
    return c.redirect(`${PATH}?saved=1`, 303);
  });
}
