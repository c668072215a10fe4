import type { Context, Hono } from "hono";
import {
  addCustomEmoji,
  type CustomEmoji,
  copyEmoji,
  deleteEmoji,
  EMOJI_PAGE_SIZE,
  type EmojiFilter,
  emojiCategories,
  emojiImageUrl,
  findEmoji,
  listEmojis,
  setEmojiDisabled,
  updateEmoji,
} from "../../../../services/custom-emojis/admin.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { csrfField } from "../../settings/forms.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { actingAs, buttonForm, done, fileOf, found, refusal, select, textField } from "./shared.ts";

const PATH = "/admin/custom_emojis";
const P = Permission.manageCustomEmojis;

function filterOf(c: Context<HonoEnv>): EmojiFilter & { page: number } {
  const origin = c.req.query("origin");
  const page = Number(c.req.query("page") ?? "1");
  return {
    origin: origin === "remote" || origin === "all" ? origin : "local",
    shortcode: (c.req.query("shortcode") ?? "").trim().slice(0, 100) || undefined,
    domain: (c.req.query("domain") ?? "").trim().slice(0, 253) || undefined,
    page: Number.isSafeInteger(page) && page > 0 && page < 10_000 ? page : 1,
  };
}

function queryOf(f: EmojiFilter, page: number): string {
  const q = new URLSearchParams({ origin: f.origin });
  if (f.shortcode) q.set("shortcode", f.shortcode);
  if (f.domain) q.set("domain", f.domain);
  if (page > 1) q.set("page", String(page));
  return q.toString();
}

async function listPage(c: Context<HonoEnv>, me: Staff, error?: string): Promise<Response> {
  const tr = t(c);
  const ctx = c.env.ctx;
  const f = filterOf(c);
  const [emojis, categories] = await Promise.all([
    listEmojis(ctx, f, (f.page - 1) * EMOJI_PAGE_SIZE, EMOJI_PAGE_SIZE + 1),
    emojiCategories(ctx),
  ]);
  const more = emojis.length > EMOJI_PAGE_SIZE;
  const shown = emojis.slice(0, EMOJI_PAGE_SIZE);
  const here = `${PATH}?${queryOf(f, f.page)}`;
  const back = html`<input type="hidden" name="return_to" value="${here}">`;
  const row = (e: CustomEmoji) => html`<tr data-id="${e.id}">
<td><img class="admin-emoji" src="${emojiImageUrl(ctx, e)}" alt=":${e.shortcode}:" width="32" height="32" loading="lazy"></td>
<td><code>:${e.shortcode}:</code>${e.domain ? html`<br><span class="hint">${e.domain}</span>` : ""}</td>
<td>${
    e.domain === null
      ? html`<form method="post" action="${PATH}/${e.id}" class="admin-emoji-category">${csrfField(me.csrf)}${back}
<label for="category-${e.id}" class="visually-hidden">${tr("admin.emojis.category")}</label>
<input type="text" id="category-${e.id}" name="category" value="${e.category ?? ""}" list="emoji-categories" maxlength="64">
<label class="check" for="picker-${e.id}"><input type="checkbox" id="picker-${e.id}" name="visible_in_picker" value="1"${e.visibleInPicker ? html` checked` : ""}><span>${tr("admin.emojis.in_picker")}</span></label>
<button type="submit">${tr("admin.save")}</button></form>`
      : ""
  }</td>
<td>${e.disabled ? html`<span class="badge bad">${tr("admin.emojis.disabled")}</span>` : html`<span class="badge good">${tr("admin.emojis.enabled")}</span>`}</td>
<td><div class="admin-actions">
${buttonForm(`${PATH}/${e.id}/${e.disabled ? "enable" : "disable"}`, me.csrf, tr(e.disabled ? "admin.emojis.enable" : "admin.emojis.disable"))}
${e.domain !== null ? buttonForm(`${PATH}/${e.id}/copy`, me.csrf, tr("admin.emojis.copy")) : ""}
${buttonForm(`${PATH}/${e.id}/delete`, me.csrf, tr("admin.delete"), "danger")}
</div></td></tr>`;
  const origins = [
    ["local", tr("admin.emojis.local")],
    ["remote", tr("admin.emojis.remote")],
    ["all", tr("admin.all")],
  ] as const;
  const body = html`<h1>${tr("admin.emojis.title")}</h1>
<form method="get" action="${PATH}" class="admin-filters" role="search">
<label for="origin">${tr("admin.emojis.origin")} ${select("origin", "origin", f.origin, origins)}</label>
<label for="shortcode-filter">${tr("admin.emojis.shortcode")} <input type="search" id="shortcode-filter" name="shortcode" value="${f.shortcode ?? ""}"></label>
<label for="domain-filter">${tr("admin.emojis.domain")} <input type="text" id="domain-filter" name="domain" value="${f.domain ?? ""}"></label>
<button type="submit">${tr("admin.filter")}</button> <a href="${PATH}">${tr("admin.reset")}</a>
</form>
<datalist id="emoji-categories">${categories.map((cat) => html`<option value="${cat}"></option>`)}</datalist>
${
  shown.length === 0
    ? html`<p>${tr("admin.none")}</p>`
    : html`<table class="admin-table"><thead><tr><th scope="col">${tr("admin.emojis.image")}</th><th scope="col">${tr("admin.emojis.shortcode")}</th><th scope="col">${tr("admin.emojis.category")}</th><th scope="col">${tr("admin.emojis.state")}</th><th scope="col"><span class="visually-hidden">${tr("admin.emojis.actions")}</span></th></tr></thead>
<tbody>${shown.map(row)}</tbody></table>`
}
<nav class="admin-actions" aria-label="${tr("admin.emojis.pages")}">
${f.page > 1 ? html`<a href="${PATH}?${queryOf(f, f.page - 1)}">${tr("admin.newer")}</a>` : ""}
${more ? html`<a href="${PATH}?${queryOf(f, f.page + 1)}">${tr("admin.older")}</a>` : ""}
</nav>
<section class="admin-section" aria-labelledby="upload-heading">
<h2 id="upload-heading">${tr("admin.emojis.upload")}</h2>
<form method="post" action="${PATH}" enctype="multipart/form-data">
${csrfField(me.csrf)}
<label for="shortcode">${tr("admin.emojis.shortcode")}</label>
<input type="text" id="shortcode" name="shortcode" required pattern="[A-Za-z0-9_]{2,}" aria-describedby="shortcode-hint">
<p class="hint" id="shortcode-hint">${tr("admin.emojis.shortcode_hint")}</p>
<label for="image">${tr("admin.emojis.image")}</label>
<input type="file" id="image" name="image" accept="image/png,image/gif,image/webp" required aria-describedby="image-hint">
<p class="hint" id="image-hint">${tr("admin.emojis.image_hint")}</p>
<label for="category">${tr("admin.emojis.category")}</label>
<input type="text" id="category" name="category" list="emoji-categories" maxlength="64">
<p><button type="submit">${tr("admin.emojis.upload_button")}</button></p>
</form>
</section>`;
  return sendAdminPage(c, me, {
    title: tr("admin.emojis.title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
    error,
    status: error ? 422 : undefined,
  });
}

/** Where to go after an action: the list the form came from (same filter and page). */
function backTo(params: Record<string, unknown>): string {
  const v = textField(params, "return_to", 500);
  return v.startsWith(`${PATH}?`) && !v.includes("notice=") ? v : PATH;
}

/** `/admin/custom_emojis`: local and remote emojis (Manage Custom Emojis). */
export function emojiPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.post(PATH, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    try {
      await addCustomEmoji(
        c.env.ctx,
        {
          shortcode: textField(params, "shortcode", 100, true),
          data: (await fileOf(params, "image")) ?? new Uint8Array(),
          category: textField(params, "category", 64, true) || null,
        },
        actingAs(me),
      );
    } catch (e) {
      return listPage(c, me, refusal(e));
    }
    return done(c, PATH, "admin.emojis.uploaded");
  });

  app.post(`${PATH}/:id`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const e = await found(c, () => findEmoji(c.env.ctx, c.req.param("id")));
    if (e instanceof Response) return e;
    try {
      await updateEmoji(c.env.ctx, actingAs(me), e.id, {
        category: textField(params, "category", 100, true),
        visibleInPicker: checked(params, "visible_in_picker"),
      });
    } catch (err) {
      return listPage(c, me, refusal(err));
    }
    return done(c, backTo(params), "admin.emojis.saved");
  });

  const actions = {
    enable: (ctx, by, id) => setEmojiDisabled(ctx, by, id, false),
    disable: (ctx, by, id) => setEmojiDisabled(ctx, by, id, true),
    copy: copyEmoji,
    delete: deleteEmoji,
  } satisfies Record<string, (...a: Parameters<typeof deleteEmoji>) => Promise<unknown>>;
  for (const [name, run] of Object.entries(actions)) {
    app.post(`${PATH}/:id/${name}`, async (c) => {
      const form = await staffForm(c, P);
      if (form instanceof Response) return form;
      const { me, params } = form;
      const e = await found(c, () => findEmoji(c.env.ctx, c.req.param("id")));
      if (e instanceof Response) return e;
      try {
        await run(c.env.ctx, actingAs(me), e.id);
      } catch (err) {
        return listPage(c, me, refusal(err));
      }
      return done(c, backTo(params), `admin.emojis.${name as keyof typeof actions}_done`);
    });
  }
}
