import type { Context } from "hono";
import { removeProfileImage } from "../../../services/accounts/profile-images.ts";
import {
  type CredentialsUpdate,
  DISPLAY_NAME_MAX,
  FIELD_TEXT_MAX,
  FIELDS_MAX,
  NOTE_MAX,
  updateCredentials,
} from "../../../services/accounts/update-credentials.ts";
import { accountJson } from "../../../services/accounts/views.ts";
import { MAX_IMAGE_BYTES } from "../../../services/media/process-image.ts";
import type { Params } from "../../oauth/params.ts";
import type { HonoEnv } from "../../types.ts";
import { checked, readForm, requireUser, type SignedIn } from "../guard.ts";
import { t } from "../i18n/index.ts";
import { html } from "../pages/html.ts";
import {
  checkbox,
  csrfField,
  describedBy,
  type FieldProblems,
  fieldError,
  hasProblems,
  nested,
  problemSummary,
  problemsOf,
  savedNotice,
  text,
} from "./forms.ts";
import { sendSettingsPage } from "./layout.ts";

const PATH = "/settings/profile";
const IMAGE_TYPES = "image/png,image/jpeg,image/webp,image/gif";

/** What the form shows: the stored profile, or what was posted when it comes back with problems. */
interface ProfileValues {
  displayName: string;
  note: string;
  fields: { name: string; value: string }[];
  locked: boolean;
  bot: boolean;
  discoverable: boolean;
  indexable: boolean;
  hideCollections: boolean;
}

function storedValues(me: SignedIn): ProfileValues {
  const a = me.account;
  return {
    displayName: a.displayName,
    note: a.noteSource,
    fields: a.fieldsSource,
    locked: a.locked,
    bot: a.actorType === "Service" || a.actorType === "Application",
    discoverable: a.discoverable === true,
    indexable: a.indexable,
    hideCollections: a.hideCollections === true,
  };
}

async function profilePage(
  c: Context<HonoEnv>,
  me: SignedIn,
  values: ProfileValues,
  problems?: FieldProblems,
): Promise<Response> {
  const tr = t(c);
  const json = await accountJson(c.env.ctx, me.account);
  const p = problems ?? {};
  const rows = Array.from({ length: FIELDS_MAX }, (_, i) => values.fields[i] ?? { name: "", value: "" });
  const image = (kind: "avatar" | "header", has: boolean) => {
    const id = kind;
    // This server's own files by path: the page may be reached under another name than BASE_URL's.
    const url = String(json[kind] ?? "");
    const base = c.env.ctx.config.baseUrl.replace(/\/$/, "");
    const current = url.startsWith(`${base}/`) ? url.slice(base.length) : url;
    return html`<div class="profile-image">
<label for="${id}">${tr(`settings.profile.${kind}`)}</label>
<div class="crop-frame crop-${kind}" id="${id}-frame"><img src="${current}" alt="${tr(`settings.profile.${kind}_current`)}" id="${id}-preview"></div>
<input type="file" id="${id}" name="${kind}" accept="${IMAGE_TYPES}" data-preview="${id}-preview"${describedBy(id, p[kind], true)}>
<p class="hint" id="${id}-hint">${tr(`settings.profile.${kind}_hint`, { size: kind === "avatar" ? "400×400" : "1500×500" })}</p>
${fieldError(id, p[kind])}
${has ? checkbox({ id: `remove_${kind}`, name: `remove_${kind}`, label: tr(`settings.profile.remove_${kind}`), checked: false }) : ""}
</div>`;
  };
  const body = html`<h1>${tr("settings.profile.title")}</h1>
<p>${tr("settings.profile.intro")} <a href="/@${me.account.username}">${tr("settings.profile.view")}</a></p>
${problemSummary(c, problems)}
<form method="post" action="${PATH}" enctype="multipart/form-data" class="settings-form">
${csrfField(me.csrf)}
<label for="display_name">${tr("settings.profile.display_name")}</label>
<input type="text" id="display_name" name="display_name" value="${values.displayName}" maxlength="${DISPLAY_NAME_MAX}"${describedBy("display_name", p.display_name)}>
${fieldError("display_name", p.display_name)}
<label for="note">${tr("settings.profile.note")}</label>
<textarea id="note" name="note" rows="5"${describedBy("note", p.note, true)}>${values.note}</textarea>
<p class="hint" id="note-hint">${tr("settings.profile.note_hint", { max: NOTE_MAX })}</p>
${fieldError("note", p.note)}
<div class="profile-images">
${image("avatar", me.account.avatarPath !== null)}
${image("header", me.account.headerPath !== null)}
</div>
<fieldset${describedBy("fields", p.fields, true)}>
<legend>${tr("settings.profile.fields")}</legend>
<p class="hint" id="fields-hint">${tr("settings.profile.fields_hint", { count: FIELDS_MAX, max: FIELD_TEXT_MAX })}</p>
${fieldError("fields", p.fields)}
<div class="profile-fields">
${rows.map(
  (f, i) => html`<div class="profile-field">
<div><label for="field_${i}_name">${tr("settings.profile.field_name", { n: i + 1 })}</label>
<input type="text" id="field_${i}_name" name="fields_attributes[${i}][name]" value="${f.name}" maxlength="${FIELD_TEXT_MAX}"></div>
<div><label for="field_${i}_value">${tr("settings.profile.field_value", { n: i + 1 })}</label>
<input type="text" id="field_${i}_value" name="fields_attributes[${i}][value]" value="${f.value}" maxlength="${FIELD_TEXT_MAX}"></div>
</div>`,
)}
</div>
</fieldset>
<fieldset>
<legend>${tr("settings.profile.privacy")}</legend>
${checkbox({ id: "locked", name: "locked", label: tr("settings.profile.locked"), hint: tr("settings.profile.locked_hint"), checked: values.locked })}
${checkbox({ id: "bot", name: "bot", label: tr("settings.profile.bot"), hint: tr("settings.profile.bot_hint"), checked: values.bot })}
${checkbox({ id: "discoverable", name: "discoverable", label: tr("settings.profile.discoverable"), hint: tr("settings.profile.discoverable_hint"), checked: values.discoverable })}
${checkbox({ id: "indexable", name: "indexable", label: tr("settings.profile.indexable"), hint: tr("settings.profile.indexable_hint"), checked: values.indexable })}
${checkbox({ id: "hide_collections", name: "hide_collections", label: tr("settings.profile.hide_collections"), hint: tr("settings.profile.hide_collections_hint"), checked: values.hideCollections })}
</fieldset>
<button type="submit">${tr("common.save")}</button>
</form>`;
  return sendSettingsPage(c, {
    title: tr("settings.profile.title"),
    body,
    current: PATH,
    notice: problems ? undefined : savedNotice(c),
    status: hasProblems(problems) ? 422 : 200,
    scripts: ["profile.js"],
  });
}

/** An uploaded image of the form: undefined when no file was chosen; too large ones are a problem. */
async function upload(v: unknown, field: string, problems: FieldProblems): Promise<Uint8Array | undefined> {
  if (!(v instanceof File) || (v.size === 0 && v.name === "")) return undefined;
  if (v.size > MAX_IMAGE_BYTES) {
    problems[field] = ["file size must be less than 16 MB"];
    return undefined;
  }
  return new Uint8Array(await v.arrayBuffer());
}

function postedValues(params: Params): ProfileValues {
  return {
    displayName: text(params.display_name),
    note: text(params.note),
    fields: Array.from({ length: FIELDS_MAX }, (_, i) => ({
      name: text(nested(params, "fields_attributes", String(i), "name"), 1000),
      value: text(nested(params, "fields_attributes", String(i), "value"), 1000),
    })),
    locked: checked(params, "locked"),
    bot: checked(params, "bot"),
    discoverable: checked(params, "discoverable"),
    indexable: checked(params, "indexable"),
    hideCollections: checked(params, "hide_collections"),
  };
}

async function saveProfile(c: Context<HonoEnv>): Promise<Response> {
  const me = await requireUser(c);
  if (me instanceof Response) return me;
  const params = await readForm(c, me.session);
  if (params instanceof Response) return params;
  const ctx = c.env.ctx;
  const values = postedValues(params);
  const problems: FieldProblems = {};
  const avatar = await upload(params.avatar, "avatar", problems);
  const header = await upload(params.header, "header", problems);
  if (hasProblems(problems)) return profilePage(c, me, values, problems);
  const input: CredentialsUpdate = {
    displayName: values.displayName,
    note: values.note,
    fields: values.fields,
    locked: values.locked,
    bot: values.bot,
    discoverable: values.discoverable,
    indexable: values.indexable,
    hideCollections: values.hideCollections,
    avatar,
    header,
  };
  let account = me.account;
  try {
    account = (await updateCredentials(ctx, me.account, me.user, input)).account;
  } catch (e) {
    const found = problemsOf(e);
    if (!found) throw e;
    return profilePage(c, me, values, found);
  }
  // Removing applies only when no new image replaces it.
  if (!avatar && checked(params, "remove_avatar") && account.avatarPath) {
    account = await removeProfileImage(ctx, account, "avatar");
  }
  if (!header && checked(params, "remove_header") && account.headerPath) {
    await removeProfileImage(ctx, account, "header");
  }
  return c.redirect(`${PATH}?saved=1`, 303);
}

export function profileRoutes(app: import("hono").Hono<HonoEnv>): void {
  app.get(PATH, async (c) => {
    const me = await requireUser(c);
    if (me instanceof Response) return me;
    return profilePage(c, me, storedValues(me));
  });
  app.post(PATH, saveProfile);
}
