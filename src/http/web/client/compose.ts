import type { Context, Hono } from "hono";
import {
  mediaConfiguration,
  pollsConfiguration,
  statusesConfiguration,
} from "../../../serializers/instance-configuration.ts";
import { preferencesJson } from "../../../services/accounts/views.ts";
import { supportedLanguages } from "../../../services/instance/languages.ts";
import type { HonoEnv } from "../../types.ts";
import { type MessageKey, t } from "../i18n/index.ts";
import { html, SafeHtml } from "../pages/html.ts";
import type { ClientUser } from "./layout.ts";
import { requireClient, sendClientPage } from "./layout.ts";

/** The poll durations the box offers, in seconds (each has a `client.compose.duration.N` text). */
export const POLL_DURATIONS = [300, 1800, 3600, 21600, 86400, 259200, 604800] as const;
const DEFAULT_POLL_DURATION = 86400;
const VISIBILITIES = ["public", "unlisted", "private", "direct"] as const;

/**
 * The limits the box enforces, exactly what `GET /api/v2/instance` publishes in `configuration`
 * (the same serializers build both), as `data-*` attributes for the script.
 */
function limitAttributes(): SafeHtml {
  if (limits) return limits;
  const statuses = statusesConfiguration();
  const polls = pollsConfiguration();
  const media = mediaConfiguration(2);
  const attrs: Record<string, unknown> = {
    "max-characters": statuses.max_characters,
    "url-length": statuses.characters_reserved_per_url,
    "max-media": statuses.max_media_attachments,
    "max-options": polls.max_options,
    "max-option-characters": polls.max_characters_per_option,
    "min-expiration": polls.min_expiration,
    "max-expiration": polls.max_expiration,
    "description-limit": media.description_limit,
  };
  limits = html`${Object.entries(attrs).map(([k, v]) => html` data-${k}="${String(v)}"`)}`;
  return limits;
}

let limits: SafeHtml | undefined;
let languageOptions: string | undefined;
let mimeTypes: string | undefined;

/** The language choices (built once: the list never changes while the server runs). */
function languageSelect(selected: string): SafeHtml {
  languageOptions ??= supportedLanguages()
    .map((l) => html`<option value="${l.code}">${l.name}</option>`.value)
    .join("");
  const mark = `<option value="${selected.replace(/[^a-zA-Z-]/g, "")}">`;
  return new SafeHtml(languageOptions.replace(mark, `${mark.slice(0, -1)} selected>`));
}

/** The media types the server takes, for the file input's `accept`. */
function acceptedTypes(): string {
  mimeTypes ??= (mediaConfiguration(2).supported_mime_types as string[]).join(",");
  return mimeTypes;
}

/** The compose box beside every client page (its script: assets/client-compose-js.ts). */
export function composeBox(c: Context<HonoEnv>, me: ClientUser): SafeHtml {
  const tr = t(c);
  const prefs = preferencesJson(me.account, me.user);
  const visibility = String(prefs["posting:default:visibility"] ?? "public");
  const language = (prefs["posting:default:language"] as string | null) || tr.locale;
  const sensitive = prefs["posting:default:sensitive"] === true;
  const visibilities = VISIBILITIES.map(
    (v) =>
      html`<option value="${v}"${v === visibility ? html` selected` : ""}>${tr(`client.visibility.${v}` as MessageKey)}</option>`,
  );
  const durations = POLL_DURATIONS.map(
    (s) =>
      html`<option value="${String(s)}"${s === DEFAULT_POLL_DURATION ? html` selected` : ""}>${tr(`client.compose.duration.${s}` as MessageKey)}</option>`,
  );
  return html`<form class="compose" id="compose" novalidate aria-labelledby="compose-title"${limitAttributes()} data-default-visibility="${visibility}" data-default-language="${language}">
<h2 id="compose-title" class="visually-hidden">${tr("client.compose.title")}</h2>
<p class="compose-context" id="compose-context" hidden><span class="compose-context-text"></span> <button type="button" class="link" data-compose="cancel">${tr("client.compose.cancel")}</button></p>
<p class="compose-cw" id="compose-cw-row" hidden><label for="compose-cw">${tr("client.compose.cw_label")}</label><input id="compose-cw" name="spoiler_text" autocomplete="off"></p>
<label for="compose-text" class="visually-hidden">${tr("client.compose.text_label")}</label>
<textarea id="compose-text" name="status" rows="5" aria-describedby="compose-count" placeholder="${tr("client.compose.text_label")}"></textarea>
<ul class="compose-media" id="compose-media"></ul>
<fieldset class="compose-poll" id="compose-poll" hidden><legend>${tr("client.compose.poll_legend")}</legend>
<ol class="compose-poll-options" id="compose-poll-options"></ol>
<button type="button" class="secondary" data-compose="poll-add">${tr("client.compose.poll_add")}</button>
<p><label><input type="checkbox" name="poll_multiple" id="compose-poll-multiple"> ${tr("client.compose.poll_multiple")}</label></p>
<p><label for="compose-poll-expires">${tr("client.compose.poll_expires")}</label> <select id="compose-poll-expires" name="poll_expires_in">${durations}</select></p>
</fieldset>
<div class="compose-tools">
<label class="button secondary compose-file"><span>${tr("client.compose.media_add")}</span><input type="file" id="compose-file" class="visually-hidden" accept="${acceptedTypes()}" multiple></label>
<button type="button" class="secondary" data-compose="poll" aria-pressed="false" aria-controls="compose-poll">${tr("client.compose.poll_toggle")}</button>
<button type="button" class="secondary" data-compose="cw" aria-pressed="false" aria-controls="compose-cw-row">${tr("client.compose.cw_toggle")}</button>
</div>
<p class="compose-sensitive" id="compose-sensitive-row" hidden><label><input type="checkbox" name="sensitive" id="compose-sensitive"${sensitive ? html` checked` : ""}> ${tr("client.compose.sensitive")}</label></p>
<p class="compose-selects"><label for="compose-visibility">${tr("client.compose.visibility")}</label> <select id="compose-visibility" name="visibility">${visibilities}</select>
<label for="compose-language">${tr("client.compose.language")}</label> <select id="compose-language" name="language">${languageSelect(language)}</select></p>
<p class="compose-submit"><span class="compose-count" id="compose-count" title="${tr("client.compose.remaining")}"><span class="visually-hidden">${tr("client.compose.remaining")}: </span><output id="compose-remaining" for="compose-text">${String(statusesConfiguration().max_characters)}</output></span>
<button type="submit" id="compose-submit" disabled>${tr("client.compose.submit")}</button></p>
<p class="compose-error" id="compose-error" role="alert" hidden></p>
</form>`;
}

/** The web client's compose routes (docs/web-client-compose.md). */
export function clientComposeRoutes(app: Hono<HonoEnv>): void {
  // The compose box on a page of its own (small screens, "compose full screen"); posts written
  // here are listed below it.
  app.get("/web/compose", async (c) => {
    const me = await requireClient(c);
    if (me instanceof Response) return me;
    const tr = t(c);
    return sendClientPage(c, me, {
      title: tr("client.compose.title"),
      body: html`<div class="compose-page"><p>${tr("client.compose.page_intro")}</p>
<h2 class="visually-hidden">${tr("client.compose.posted_list")}</h2>
<ul class="statuses" data-compose-posted aria-label="${tr("client.compose.posted_list")}"></ul></div>`,
      page: { compose: true },
    });
  });
}
