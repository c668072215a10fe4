import type { Context, Hono } from "hono";
import {
  type Announcement,
  type AnnouncementInput,
  checkAnnouncement,
  findAnnouncement,
  listAllAnnouncements,
  updateAnnouncement,
} from "../../../../services/announcements/admin.ts";
import {
  createAnnouncement,
  deleteAnnouncement,
  publishAnnouncement,
  unpublishAnnouncement,
} from "../../../../services/announcements/manage.ts";
import type { Params } from "../../../oauth/params.ts";
import type { HonoEnv } from "../../../types.ts";
import { checked } from "../../guard.ts";
import { t } from "../../i18n/index.ts";
import { html } from "../../pages/html.ts";
import { checkbox, csrfField, formatDate } from "../../settings/forms.ts";
import { Permission, requireStaff, type Staff, staffForm } from "../guard.ts";
import { noticeFrom, sendAdminPage } from "../layout.ts";
import { actingAs, buttonForm, done, found, refusal, textField } from "./shared.ts";

const PATH = "/admin/announcements";
const P = Permission.manageAnnouncements;

/** What the form holds: the text, all-day, and the two times as the inputs write them. */
interface FormValues {
  text: string;
  allDay: boolean;
  startsAt: string;
  endsAt: string;
  publish: boolean;
}

/** A stored time as a `datetime-local` (or, all-day, a `date`) input value, in UTC. */
function inputValue(iso: string | null, allDay: boolean): string {
  if (!iso) return "";
  return allDay ? iso.slice(0, 10) : iso.slice(0, 16);
}

/**
 * A time from the form, read as UTC: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`. All-day announcements keep
 * the day only (midnight UTC), as Mastodon's form gives dates only for them. Undefined when unreadable.
 */
function timeOf(v: string, allDay: boolean): string | null | undefined {
  const s = v.trim();
  if (s === "") return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(?::\d{2})?)?$/.exec(s);
  if (!m) return undefined;
  const d = new Date(`${m[1]}T${allDay || !m[2] ? "00:00" : m[2]}:00Z`);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

function readValues(params: Params): FormValues {
  return {
    text: textField(params, "text", 10_000, true),
    allDay: checked(params, "all_day"),
    startsAt: textField(params, "starts_at", 40, true),
    endsAt: textField(params, "ends_at", 40, true),
    publish: checked(params, "publish"),
  };
}

/** The form's values as the service takes them; a message for a time that cannot be read. */
function inputOf(c: Context<HonoEnv>, v: FormValues): AnnouncementInput | string {
  const startsAt = timeOf(v.startsAt, v.allDay);
  const endsAt = timeOf(v.endsAt, v.allDay);
  if (startsAt === undefined || endsAt === undefined) return t(c)("admin.announcements.bad_time");
  return { text: v.text, allDay: v.allDay, startsAt, endsAt };
}

async function listPage(c: Context<HonoEnv>, me: Staff, error?: string, status?: number): Promise<Response> {
  const tr = t(c);
  const list = await listAllAnnouncements(c.env.ctx);
  const when = (a: Announcement) =>
    a.startsAt
      ? tr("admin.announcements.range", {
          from: formatDate(tr.locale, a.startsAt, !a.allDay),
          to: formatDate(tr.locale, a.endsAt, !a.allDay),
        })
      : "";
  const rows = list.map(
    (a) => html`<tr data-id="${a.id}">
<td>${a.text.length > 200 ? `${a.text.slice(0, 199)}…` : a.text}</td>
<td>${when(a)}${a.allDay ? html` <span class="badge">${tr("admin.announcements.all_day")}</span>` : ""}</td>
<td>${a.published ? html`<span class="badge good">${tr("admin.announcements.published")}</span>` : html`<span class="badge">${tr("admin.announcements.draft")}</span>`}</td>
<td><div class="admin-actions"><a href="${PATH}/${a.id}/edit">${tr("admin.edit")}</a>
${
  a.published
    ? buttonForm(`${PATH}/${a.id}/unpublish`, me.csrf, tr("admin.announcements.unpublish"))
    : buttonForm(`${PATH}/${a.id}/publish`, me.csrf, tr("admin.announcements.publish"))
}
${buttonForm(`${PATH}/${a.id}/delete`, me.csrf, tr("admin.delete"), "danger")}</div></td>
</tr>`,
  );
  const body = html`<h1>${tr("admin.announcements.title")}</h1>
<p><a href="${PATH}/new">${tr("admin.announcements.new")}</a></p>
${
  list.length === 0
    ? html`<p>${tr("admin.none")}</p>`
    : html`<table class="admin-table"><thead><tr><th scope="col">${tr("admin.announcements.text")}</th><th scope="col">${tr("admin.announcements.when")}</th><th scope="col">${tr("admin.announcements.state")}</th><th scope="col"><span class="visually-hidden">${tr("admin.announcements.actions")}</span></th></tr></thead>
<tbody>${rows}</tbody></table>`
}`;
  return sendAdminPage(c, me, {
    title: tr("admin.announcements.title"),
    body,
    current: PATH,
    notice: noticeFrom(c),
    error,
    status,
  });
}

function formPage(
  c: Context<HonoEnv>,
  me: Staff,
  v: FormValues,
  target: { id: string } | undefined,
  error?: string,
): Promise<Response> {
  const tr = t(c);
  const title = target ? tr("admin.announcements.edit") : tr("admin.announcements.new");
  const action = target ? `${PATH}/${target.id}` : PATH;
  const body = html`<h1>${title}</h1>
<form method="post" action="${action}">
${csrfField(me.csrf)}
<label for="text">${tr("admin.announcements.text")}</label>
<textarea id="text" name="text" rows="5" required>${v.text}</textarea>
${checkbox({ id: "all_day", name: "all_day", label: tr("admin.announcements.all_day"), checked: v.allDay, hint: tr("admin.announcements.all_day_hint") })}
<label for="starts_at">${tr("admin.announcements.starts_at")}</label>
<input type="datetime-local" id="starts_at" name="starts_at" value="${v.startsAt}" aria-describedby="times-hint">
<label for="ends_at">${tr("admin.announcements.ends_at")}</label>
<input type="datetime-local" id="ends_at" name="ends_at" value="${v.endsAt}" aria-describedby="times-hint">
<p class="hint" id="times-hint">${tr("admin.announcements.times_hint")}</p>
${target ? "" : checkbox({ id: "publish", name: "publish", label: tr("admin.announcements.publish_now"), checked: v.publish })}
<p><button type="submit">${target ? tr("admin.save") : tr("admin.announcements.create")}</button> <a href="${PATH}">${tr("admin.cancel")}</a></p>
</form>`;
  return sendAdminPage(c, me, { title, body, current: PATH, error, status: error ? 422 : undefined });
}

/** `/admin/announcements`: list, write, change, publish, unpublish, delete (Manage Announcements). */
export function announcementPages(app: Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return listPage(c, me);
  });

  app.get(`${PATH}/new`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    return formPage(c, me, { text: "", allDay: false, startsAt: "", endsAt: "", publish: true }, undefined);
  });

  app.post(PATH, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const v = readValues(params);
    const input = inputOf(c, v);
    if (typeof input === "string") return formPage(c, me, v, undefined, input);
    try {
      checkAnnouncement(input);
      await createAnnouncement(c.env.ctx, { ...input, publish: v.publish }, actingAs(me));
    } catch (e) {
      return formPage(c, me, v, undefined, refusal(e));
    }
    return done(c, PATH, "admin.announcements.created");
  });

  app.get(`${PATH}/:id/edit`, async (c) => {
    const me = await requireStaff(c, P);
    if (me instanceof Response) return me;
    const a = await found(c, () => findAnnouncement(c.env.ctx, c.req.param("id")));
    if (a instanceof Response) return a;
    const values = {
      text: a.text,
      allDay: a.allDay,
      startsAt: inputValue(a.startsAt, false),
      endsAt: inputValue(a.endsAt, false),
      publish: a.published,
    };
    return formPage(c, me, values, a);
  });

  app.post(`${PATH}/:id`, async (c) => {
    const form = await staffForm(c, P);
    if (form instanceof Response) return form;
    const { me, params } = form;
    const a = await found(c, () => findAnnouncement(c.env.ctx, c.req.param("id")));
    if (a instanceof Response) return a;
    const v = readValues(params);
    const input = inputOf(c, v);
    if (typeof input === "string") return formPage(c, me, v, a, input);
    try {
      await updateAnnouncement(c.env.ctx, actingAs(me), a.id, input);
    } catch (e) {
      return formPage(c, me, v, a, refusal(e));
    }
    return done(c, PATH, "admin.announcements.saved");
  });

  const actions = {
    publish: [publishAnnouncement, "admin.announcements.published_notice"],
    unpublish: [unpublishAnnouncement, "admin.announcements.unpublished_notice"],
    delete: [deleteAnnouncement, "admin.announcements.deleted"],
  } as const;
  for (const [name, [run, notice]] of Object.entries(actions)) {
    app.post(`${PATH}/:id/${name}`, async (c) => {
      const form = await staffForm(c, P);
      if (form instanceof Response) return form;
      const a = await found(c, () => findAnnouncement(c.env.ctx, c.req.param("id")));
      if (a instanceof Response) return a;
      await run(c.env.ctx, a.id, actingAs(form.me));
      return done(c, PATH, notice);
    });
  }
}
