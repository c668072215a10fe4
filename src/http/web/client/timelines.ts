import type { Context, Hono } from "hono";
import { ApiError } from "../../../lib/errors.ts";
import { serializeList } from "../../../serializers/list.ts";
import { LIST_TITLE_MAX, ownLists } from "../../../services/lists/lists.ts";
import { tagJsonByName } from "../../../services/statuses/tags.ts";
import type { HonoEnv } from "../../types.ts";
import { t } from "../i18n/index.ts";
import { encodedPart } from "../layout.ts";
import { html, SafeHtml } from "../pages/html.ts";
import { type ClientUser, clientView, requireClient, sendClientPage } from "./layout.ts";
import { esc, lbl, type RStatus, renderStatus, renderStatuses } from "./render.ts";
import {
  HOME_LIMIT,
  homeData,
  homeMarker,
  listData,
  PAGE_LIMIT,
  publicData,
  savedData,
  statusesOf,
  type TimelineData,
  tagData,
  windowOf,
} from "./timeline-data.ts";

/**
 * The web client's timelines (docs/web-client-timelines.md): home, local, federated, a hashtag,
 * lists, bookmarks and favourites. Each page renders the first page of the same entities the API
 * answers for the signed-in user (timeline-data.ts) with the shared renderer; its script
 * (assets/client-timelines-js.ts) loads more through the API, follows the streaming API and keeps
 * the home marker.
 */

/** What a timeline list tells its script (data attributes of `ul.statuses[data-timeline]`). */
interface TimelineList {
  /** `home`, `local`, `federated`, `tag`, `list`, `bookmarks`, `favourites`. */
  kind: string;
  /** The streaming API's stream for live updates on the first page (`user`, `public:local`, ...). */
  stream?: string;
  streamParams?: Record<string, string>;
  /** The page's own path, for the `?max_id=` link of reading on without script. */
  path: string;
  /** The home marker, on the first page of home. */
  lastRead?: string;
  label: string;
}

const bigId = (id: string): bigint => BigInt(id);

/**
 * The posts as `renderStatuses` gives them, with the "read up to here" separator above the newest
 * post the marker has read, when newer posts stand above it (the separator follows the last-read
 * post in time: everything under it was read).
 */
function itemsWithMarker(c: Context<HonoEnv>, me: ClientUser, statuses: RStatus[], lastRead?: string): string {
  const view = clientView(c, me, "home");
  if (lastRead === undefined || statuses.length === 0) return renderStatuses(statuses, view);
  const mark = bigId(lastRead);
  const at = statuses.findIndex((s) => bigId(s.id) <= mark);
  if (at <= 0) return renderStatuses(statuses, view);
  const items: string[] = [];
  statuses.forEach((s, i) => {
    if (i === at) {
      items.push(
        `<li class="read-marker" role="separator" data-last-read="${esc(lastRead)}"><span>${lbl(view, "client.timelines.read_marker")}</span></li>`,
      );
    }
    const h = renderStatus(s, view);
    if (h) items.push(`<li data-id="${esc(s.id)}">${h}</li>`);
  });
  return items.join("") || `<li class="empty">${lbl(view, "client.empty")}</li>`;
}

const renderedItems = new WeakMap<Buffer, Map<string, Buffer>>();

/**
 * The rendered posts of a page's JSON, made (and encoded) once per body and variant (locale,
 * viewer, marker): the home and list timelines' kept bodies stay the same Buffer while nothing on
 * the page changed (services/statuses/rendered.ts), so reloading an unchanged page renders nothing
 * again.
 */
function cachedItems(body: Buffer, variant: string, make: () => string): Buffer {
  let byVariant = renderedItems.get(body);
  if (byVariant === undefined) {
    byVariant = new Map();
    renderedItems.set(body, byVariant);
  }
  let items = byVariant.get(variant);
  if (items === undefined) {
    items = Buffer.from(make());
    if (byVariant.size >= 8) byVariant.clear();
    byVariant.set(variant, items);
  }
  return items;
}

/** A timeline's rendered posts, encoded (what a kept page is made from). */
function timelineItems(
  c: Context<HonoEnv>,
  me: ClientUser,
  data: TimelineData,
  list: TimelineList,
  context: string | undefined,
): Buffer {
  const marker = list.kind === "home" && windowOf(c, 0).maxId === undefined;
  const variant = `${t(c).locale} ${me.account.id} ${context ?? ""} ${marker ? (list.lastRead ?? "") : "-"}`;
  return cachedItems(data.body, variant, () =>
    marker
      ? itemsWithMarker(c, me, statusesOf(data), list.lastRead)
      : renderStatuses(statusesOf(data), clientView(c, me, context)),
  );
}

/** A timeline's list of posts with its "Load more" link (a link that the script turns into a fetch). */
function timelineBlock(
  c: Context<HonoEnv>,
  me: ClientUser,
  data: TimelineData,
  list: TimelineList,
  context: string | undefined,
  items: Buffer = timelineItems(c, me, data, list, context),
): SafeHtml {
  const tr = t(c);
  const firstPage = windowOf(c, 0).maxId === undefined;
  const attrs: string[] = [`data-timeline="${esc(list.kind)}"`];
  if (data.next) attrs.push(`data-next="${esc(data.next)}"`);
  if (firstPage && list.stream) {
    attrs.push(`data-stream="${esc(list.stream)}"`);
    for (const [k, v] of Object.entries(list.streamParams ?? {})) attrs.push(`data-stream-${k}="${esc(v)}"`);
  }
  if (firstPage && list.kind === "home") attrs.push(`data-last-read="${esc(list.lastRead ?? "")}"`);
  const more = data.nextMaxId
    ? html`<a class="load-more button" href="${list.path}?max_id=${data.nextMaxId}" rel="next">${tr("client.load_more")}</a>`
    : "";
  const newest = firstPage ? "" : html`<p><a href="${list.path}">${tr("client.timelines.newest")}</a></p>`;
  return html`${newest}<ul class="statuses" ${new SafeHtml(attrs.join(" "))} aria-label="${list.label}">${encodedPart(c, items)}</ul>
${more}
<p class="timeline-keys">${tr("client.timelines.keys")}</p>`;
}

/** `requireClient`, then the page (the API's 404 becomes the client's not-found page). */
function clientRoute(
  handler: (c: Context<HonoEnv>, me: ClientUser) => Promise<Response>,
): (c: Context<HonoEnv>) => Promise<Response> {
  return async (c) => {
    const me = await requireClient(c);
    if (me instanceof Response) return me;
    return handler(c, me);
  };
}

/** `/home`: the home timeline, 40 posts, with the read marker. */
async function homePage(c: Context<HonoEnv>, me: ClientUser): Promise<Response> {
  const tr = t(c);
  const w = windowOf(c, HOME_LIMIT);
  const [data, lastRead] = await Promise.all([
    homeData(c, me.account.id, w),
    w.maxId ? Promise.resolve(undefined) : homeMarker(c, me.account.id),
  ]);
  const list: TimelineList = { kind: "home", stream: "user", path: "/home", lastRead, label: tr("client.home") };
  const items = timelineItems(c, me, data, list, "home");
  // Reloading an unchanged home page sends the same bytes (layout.ts keeps them per session), and
  // makes nothing of the page but its posts' (kept) encoding.
  const keep = { on: items, variant: `/home ${w.maxId ?? ""} ${lastRead ?? ""}` };
  const body = () => timelineBlock(c, me, data, list, "home", items);
  return sendClientPage(c, me, { title: tr("client.home"), body, current: "/home", context: "home", keep });
}

/** `/web/public/local` and `/web/public`: the live feeds, within the operator's access settings. */
async function publicPage(c: Context<HonoEnv>, me: ClientUser, local: boolean): Promise<Response> {
  const tr = t(c);
  const data = await publicData(
    c,
    { accountId: me.account.id, roleId: me.user.roleId },
    local,
    windowOf(c, PAGE_LIMIT),
  );
  const path = local ? "/web/public/local" : "/web/public";
  const title = local ? tr("client.local") : tr("client.federated");
  const closed = data.closed ? html`<p class="notice" role="alert">${tr("client.timelines.feed_closed")}</p>` : "";
  const block = timelineBlock(
    c,
    me,
    data,
    {
      kind: local ? "local" : "federated",
      stream: data.closed ? undefined : local ? "public:local" : "public",
      path,
      label: title,
    },
    "public",
  );
  return sendClientPage(c, me, { title, body: html`${closed}${block}`, current: path, context: "public" });
}

/** `/web/tags/:name`: a hashtag's posts, with a follow/unfollow button (through the API). */
async function tagPage(c: Context<HonoEnv>, me: ClientUser): Promise<Response> {
  const tr = t(c);
  const raw = c.req.param("name") ?? "";
  const name = raw.replace(/^#/, "");
  const [tag, data] = await Promise.all([
    tagJsonByName(c.env.ctx, name, me.account.id, true).catch((e) => {
      if (e instanceof ApiError && e.status === 404) return undefined;
      throw e;
    }),
    tagData(c, me.account.id, name, windowOf(c, PAGE_LIMIT)),
  ]);
  const shown = typeof tag?.name === "string" ? tag.name : name;
  const title = tr("client.timelines.tag_title", { name: shown });
  const following = tag?.following === true;
  const follow = tag
    ? html`<p class="tag-actions"><button type="button" class="tag-follow" data-tag="${shown}" aria-pressed="${following ? "true" : "false"}" data-follow-label="${tr("client.timelines.follow_tag", { name: shown })}" data-unfollow-label="${tr("client.timelines.unfollow_tag", { name: shown })}">${following ? tr("client.timelines.unfollow_tag", { name: shown }) : tr("client.timelines.follow_tag", { name: shown })}</button></p>`
    : "";
  const path = `/web/tags/${encodeURIComponent(name)}`;
  const block = timelineBlock(
    c,
    me,
    data,
    { kind: "tag", stream: "hashtag", streamParams: { tag: name }, path, label: title },
    "public",
  );
  return sendClientPage(c, me, { title, body: html`${follow}${block}`, context: "public" });
}

/** `/lists`: the viewer's lists, with a form to create one and a button to delete each (through the API). */
async function listsPage(c: Context<HonoEnv>, me: ClientUser): Promise<Response> {
  const tr = t(c);
  const lists = (await ownLists(c.env.ctx, me.account.id)).map(serializeList);
  const items = lists.map(
    (l) =>
      html`<li data-list-id="${String(l.id)}"><a href="/lists/${String(l.id)}">${String(l.title)}</a> <button type="button" class="list-delete" data-list-id="${String(l.id)}" data-title="${String(l.title)}" aria-label="${tr("client.timelines.delete_list", { title: String(l.title) })}">${tr("client.timelines.delete")}</button></li>\n`,
  );
  const policies = (["list", "followed", "none"] as const).map(
    (p) => html`<option value="${p}">${tr(`client.timelines.replies.${p}`)}</option>`,
  );
  const body = html`<p>${tr("client.timelines.lists_intro")}</p>
<section aria-labelledby="your-lists"><h2 id="your-lists">${tr("client.timelines.your_lists")}</h2>
<ul class="client-lists" data-empty="${tr("client.timelines.no_lists")}">${items.length > 0 ? items : html`<li class="empty">${tr("client.timelines.no_lists")}</li>`}</ul>
</section>
<section aria-labelledby="new-list"><h2 id="new-list">${tr("client.timelines.new_list")}</h2>
<form class="list-create">
<p class="error" role="alert" hidden></p>
<label for="list-title">${tr("client.timelines.list_title")}</label>
<input id="list-title" name="title" required maxlength="${LIST_TITLE_MAX}" autocomplete="off">
<label for="list-replies">${tr("client.timelines.replies_policy")}</label>
<select id="list-replies" name="replies_policy">${policies}</select>
<label class="check"><input type="checkbox" name="exclusive" value="1"> ${tr("client.timelines.exclusive")}</label>
<button type="submit">${tr("client.timelines.create_list")}</button>
</form>
</section>`;
  return sendClientPage(c, me, { title: tr("client.lists"), body, current: "/lists" });
}

/** `/lists/:id`: one of the viewer's lists' timeline (others' lists are not found, as in the API). */
async function listPage(c: Context<HonoEnv>, me: ClientUser): Promise<Response> {
  const tr = t(c);
  const id = c.req.param("id") ?? "";
  const lists = await ownLists(c.env.ctx, me.account.id);
  const list = lists.find((l) => l.id === id);
  if (!list) {
    const body = html`<p class="error" role="alert">${tr("client.timelines.list_not_found")}</p>
<p><a href="/lists">${tr("client.timelines.all_lists")}</a></p>`;
    return sendClientPage(c, me, { title: tr("common.not_found"), body, current: "/lists", status: 404 });
  }
  const data = await listData(c, me.account.id, id, windowOf(c, PAGE_LIMIT));
  const block = timelineBlock(
    c,
    me,
    data,
    { kind: "list", stream: "list", streamParams: { list: id }, path: `/lists/${id}`, label: list.title },
    "home",
  );
  const back = html`<p><a href="/lists">${tr("client.timelines.all_lists")}</a></p>`;
  return sendClientPage(c, me, { title: list.title, body: html`${back}${block}`, current: "/lists", context: "home" });
}

/** `/bookmarks` and `/favourites`: paged by the bookmark's or favourite's id (the API's Link header). */
async function savedPage(c: Context<HonoEnv>, me: ClientUser, kind: "bookmarks" | "favourites"): Promise<Response> {
  const tr = t(c);
  const data = await savedData(c, me.account.id, kind, windowOf(c, PAGE_LIMIT));
  const title = kind === "bookmarks" ? tr("client.bookmarks") : tr("client.favourites");
  const intro = kind === "bookmarks" ? tr("client.timelines.bookmarks_intro") : tr("client.timelines.favourites_intro");
  const block = timelineBlock(c, me, data, { kind, path: `/${kind}`, label: title }, undefined);
  return sendClientPage(c, me, { title, body: html`<p>${intro}</p>${block}`, current: `/${kind}` });
}

/** The web client's timelines (docs/web-client-timelines.md). */
export function clientTimelineRoutes(app: Hono<HonoEnv>): void {
  app.get("/home", clientRoute(homePage));
  app.get(
    "/web/public/local",
    clientRoute((c, me) => publicPage(c, me, true)),
  );
  app.get(
    "/web/public",
    clientRoute((c, me) => publicPage(c, me, false)),
  );
  app.get("/web/tags/:name", clientRoute(tagPage));
  app.get("/lists", clientRoute(listsPage));
  app.get("/lists/:id{[0-9]+}", clientRoute(listPage));
  app.get(
    "/bookmarks",
    clientRoute((c, me) => savedPage(c, me, "bookmarks")),
  );
  app.get(
    "/favourites",
    clientRoute((c, me) => savedPage(c, me, "favourites")),
  );
}
