import type { Context, Hono } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import { ACCOUNT_LIMITS } from "../../../lib/limits.ts";
import * as tags from "../../../services/tags/curation.ts";
import type { HonoEnv } from "../../types.ts";
import { readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import {
  csrfField,
  describedBy,
  type FieldProblems,
  fieldError,
  formatDate,
  hasProblems,
  problemSummary,
  savedNotice,
  text,
} from "./forms.ts";
import { sendSettingsPage } from "./layout.ts";

const FEATURED = "/settings/featured_tags";
const FOLLOWED = "/settings/followed_tags";
const PAGE_SIZE = 40;

interface FeaturedTagEntity {
  id: string;
  name: string;
  statuses_count: number | string;
  last_status_at: string | null;
}

async function featuredPage(c: Context<HonoEnv>, me: SignedIn, name = "", problems?: FieldProblems): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const featured = (await tags.featuredTagsJson(ctx, me.account)) as unknown as FeaturedTagEntity[];
  const suggestions = (await tags.featuredTagSuggestions(ctx, me.account)) as unknown as { name: string }[];
  const p = problems ?? {};
  const full = featured.length >= ACCOUNT_LIMITS.maxFeaturedTags;
  const body = html`<h1>${tr("settings.featured_tags.title")}</h1>
<p>${tr("settings.featured_tags.intro", { max: ACCOUNT_LIMITS.maxFeaturedTags })}</p>
${problemSummary(c, problems)}
<form method="post" action="${FEATURED}" class="settings-form inline-form">
${csrfField(me.csrf)}
<label for="name">${tr("settings.featured_tags.name")}</label>
<div class="input-row"><input type="text" id="name" name="name" value="${name}" maxlength="201" required${describedBy("name", p.name)}>
<button type="submit"${full ? html` disabled` : ""}>${tr("settings.featured_tags.add")}</button></div>
${fieldError("name", p.name)}
</form>
${
  suggestions.length > 0 && !full
    ? html`<h2>${tr("settings.featured_tags.suggestions")}</h2>
<ul class="tag-suggestions">${suggestions.map(
        (s) =>
          html`<li><form method="post" action="${FEATURED}">${csrfField(me.csrf)}<input type="hidden" name="name" value="${s.name}"><button type="submit" class="secondary">#${s.name}</button></form></li>`,
      )}</ul>`
    : ""
}
<h2>${tr("settings.featured_tags.current")}</h2>
${
  featured.length === 0
    ? html`<p class="muted">${tr("settings.featured_tags.none")}</p>`
    : html`<table>
<thead><tr><th scope="col">${tr("settings.featured_tags.hashtag")}</th><th scope="col">${tr("settings.featured_tags.posts")}</th><th scope="col">${tr("settings.featured_tags.last_used")}</th><th scope="col"><span class="visually-hidden">${tr("settings.featured_tags.actions")}</span></th></tr></thead>
<tbody>
${featured.map(
  (f) => html`<tr>
<td><a href="/tags/${f.name}">#${f.name}</a></td>
<td>${String(f.statuses_count)}</td>
<td>${f.last_status_at ? formatDate(tr.locale, f.last_status_at) : tr("settings.featured_tags.never_used")}</td>
<td><form method="post" action="${FEATURED}/${f.id}/delete">${csrfField(me.csrf)}<button type="submit" class="link">${tr("settings.featured_tags.remove")}<span class="visually-hidden"> #${f.name}</span></button></form></td>
</tr>`,
)}
</tbody></table>`
}`;
  return sendSettingsPage(c, {
    title: tr("settings.featured_tags.title"),
    body,
    current: FEATURED,
    notice: problems ? undefined : savedNotice(c),
    status: hasProblems(problems) ? 422 : 200,
  });
}

async function followedPage(c: Context<HonoEnv>, me: SignedIn, name = "", problems?: FieldProblems): Promise<Response> {
  const tr = t(c);
  const maxId = c.req.query("max_id");
  const window = { limit: PAGE_SIZE + 1, ...(maxId && /^\d{1,20}$/.test(maxId) ? { maxId } : {}) };
  const rows = await tags.followedTagsPage(c.env.ctx, me.account.id, window);
  const more = rows.length > PAGE_SIZE;
  const shown = rows.slice(0, PAGE_SIZE);
  const p = problems ?? {};
  const body = html`<h1>${tr("settings.followed_tags.title")}</h1>
<p>${tr("settings.followed_tags.intro")}</p>
${problemSummary(c, problems)}
<form method="post" action="${FOLLOWED}" class="settings-form inline-form">
${csrfField(me.csrf)}
<label for="name">${tr("settings.followed_tags.name")}</label>
<div class="input-row"><input type="text" id="name" name="name" value="${name}" maxlength="201" required${describedBy("name", p.name)}>
<button type="submit">${tr("settings.followed_tags.follow")}</button></div>
${fieldError("name", p.name)}
</form>
${
  shown.length === 0 && !maxId
    ? html`<p class="muted">${tr("settings.followed_tags.none")}</p>`
    : html`<ul class="settings-list tag-list">
${shown.map(
  (r) => html`<li class="settings-item"><a href="/tags/${r.tag.name}">#${r.tag.displayName}</a>
<form method="post" action="${FOLLOWED}/unfollow">${csrfField(me.csrf)}<input type="hidden" name="name" value="${r.tag.name}"><button type="submit" class="link">${tr("settings.followed_tags.unfollow")}<span class="visually-hidden"> #${r.tag.displayName}</span></button></form></li>`,
)}
</ul>
${more ? html`<nav class="pagination" aria-label="${tr("common.pagination")}"><span></span><a href="${FOLLOWED}?max_id=${shown.at(-1)?.id ?? ""}">${tr("common.next")}</a></nav>` : ""}`
}`;
  return sendSettingsPage(c, {
    title: tr("settings.followed_tags.title"),
    body,
    current: FOLLOWED,
    notice: problems ? undefined : savedNotice(c),
    status: hasProblems(problems) ? 422 : 200,
  });
}

/** A hashtag as typed in a form: without its `#` and surrounding spaces. */
const tagName = (v: unknown): string => text(v, 300).trim().replace(/^#/, "");

/** An ApiError of a tag service as a problem of the form's name field. */
function nameProblem(c: Context<HonoEnv>, e: unknown): FieldProblems | undefined {
  if (!(e instanceof ApiError) || e.status >= 500) return undefined;
  const tr = t(c);
  if (e.status === 404 || /invalid|missing/i.test(e.message)) return { name: [tr("settings.tags.invalid_name")] };
  return { name: [e.message.replace(/^Validation failed: /, "")] };
}

export function tagRoutes(app: Hono<HonoEnv>): void {
  app.get(FEATURED, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return featuredPage(c, me);
  });

  app.post(FEATURED, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const name = tagName(params.name);
    try {
      await tags.createFeaturedTag(c.env.ctx, me.account, name);
    } catch (e) {
      const problems = nameProblem(c, e);
      if (!problems) throw e;
      return featuredPage(c, me, name, problems);
    }
    return c.redirect(`${FEATURED}?saved=1`, 303);
  });

  app.post(`${FEATURED}/:id/delete`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const id = c.req.param("id");
    try {
      if (!/^\d{1,20}$/.test(id)) throw new ApiError(404, "Record not found");
      await tags.deleteFeaturedTag(c.env.ctx, me.account, id);
    } catch (e) {
      // Removed already (another tab): the list shows how things are.
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    return c.redirect(`${FEATURED}?saved=1`, 303);
  });

  app.get(FOLLOWED, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return followedPage(c, me);
  });

  app.post(FOLLOWED, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    const name = tagName(params.name);
    try {
      await tags.followTag(c.env.ctx, me.account, name);
    } catch (e) {
      const problems = nameProblem(c, e);
      if (!problems) throw e;
      return followedPage(c, me, name, problems);
    }
    return c.redirect(`${FOLLOWED}?saved=1`, 303);
  });

  app.post(`${FOLLOWED}/unfollow`, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    const params = await readForm(c, me.session);
    if (params instanceof Response) return params;
    try {
      await tags.unfollowTag(c.env.ctx, me.account, tagName(params.name));
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 404)) throw e;
    }
    return c.redirect(`${FOLLOWED}?saved=1`, 303);
  });
}
