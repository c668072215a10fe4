import type { Context, Hono } from "hono";
import type { Status } from "../../services/statuses/types.ts";
import { profilePage, statusPage } from "../../services/web/public-pages.ts";
import type { HonoEnv } from "../types.ts";
import { sendPage } from "./layout.ts";
import { html, SafeHtml } from "./pages/html.ts";

/** Whether the client asked for ActivityPub JSON rather than a page (Mastodon's two types). */
export function wantsActivityPub(accept: string | undefined): boolean {
  if (!accept) return false;
  return /application\/activity\+json|application\/ld\+json/i.test(accept);
}

/** Answers from Fedify as if the request had named the canonical ActivityPub URL. */
async function fromFederation(c: Context<HonoEnv>, path: string): Promise<Response> {
  const ctx = c.env.ctx;
  const federation = await ctx.federation();
  const request = new Request(new URL(path, ctx.config.baseUrl), { headers: c.req.raw.headers });
  return federation.fetch(request, { contextData: ctx });
}

/** The ActivityPub twin of a page, for clients and servers that read HTML first. */
function alternate(uri: string): { head: SafeHtml; link: string } {
  return {
    head: html`<link rel="alternate" type="application/activity+json" href="${uri}">`,
    link: `<${uri}>; rel="alternate"; type="application/activity+json"`,
  };
}

function postHtml(s: Status, url: string): SafeHtml {
  const body = html`${new SafeHtml(s.content)}`;
  return html`<article>
<p class="muted"><a href="${url}">${s.createdAt.slice(0, 16).replace("T", " ")}</a>${s.editedAt ? " (edited)" : ""}</p>
${s.spoilerText ? html`<details><summary>${s.spoilerText}</summary>${body}</details>` : body}
</article>`;
}

/**
 * Public pages of local profiles (`/@username`) and posts (`/@username/ID`), and content
 * negotiation on them and on the ActivityPub URLs: a client asking for ActivityPub JSON at a
 * page's URL gets the actor or note, a browser at `/users/...` is sent to the page.
 */
export function publicPageRoutes(app: Hono<HonoEnv>): void {
  app.get("/:handle{@[A-Za-z0-9_]+}", async (c) => {
    const username = c.req.param("handle").slice(1);
    if (wantsActivityPub(c.req.header("accept"))) return fromFederation(c, `/users/${username}`);
    const page = await profilePage(c.env.ctx, username);
    if (!page) return sendPage(c, { title: "Not found", body: html`<h1>Not found</h1>`, status: 404 });
    const { account, statuses } = page;
    const alt = alternate(account.uri);
    c.header("Link", alt.link);
    c.header("Vary", "Accept");
    const acct = `@${account.username}@${c.env.ctx.config.localDomain}`;
    return sendPage(c, {
      title: account.displayName || account.username,
      head: alt.head,
      body: html`<h1>${account.displayName || account.username}</h1>
<p class="muted">${acct}</p>
${new SafeHtml(account.note)}
${account.fields.length > 0 ? html`<dl>${account.fields.map((f) => html`<dt>${f.name}</dt><dd>${new SafeHtml(f.value)}</dd>`)}</dl>` : ""}
<p class="muted">${account.statusesCount} posts, ${account.followersCount} followers, ${account.followingCount} following</p>
${statuses.map((s) => postHtml(s, s.url ?? s.uri))}`,
    });
  });

  app.get("/:handle{@[A-Za-z0-9_]+}/:id{[0-9]{1,20}}", async (c) => {
    const username = c.req.param("handle").slice(1);
    const id = c.req.param("id");
    if (wantsActivityPub(c.req.header("accept"))) return fromFederation(c, `/users/${username}/statuses/${id}`);
    const page = await statusPage(c.env.ctx, username, id);
    if (page === "gone") return sendPage(c, { title: "Gone", body: html`<h1>This post was deleted</h1>`, status: 410 });
    if (!page) return sendPage(c, { title: "Not found", body: html`<h1>Not found</h1>`, status: 404 });
    const { account, status } = page;
    const alt = alternate(status.uri);
    c.header("Link", alt.link);
    c.header("Vary", "Accept");
    const profile = account.url ?? `/@${account.username}`;
    return sendPage(c, {
      title: `${account.displayName || account.username}: post`,
      head: alt.head,
      body: html`<p><a href="${profile}">${account.displayName || account.username}</a>
<span class="muted">@${account.username}@${c.env.ctx.config.localDomain}</span></p>
${postHtml(status, status.url ?? status.uri)}`,
    });
  });

  // Fedify answered these when ActivityPub was asked for and it had the object; a browser goes
  // to the page, an ActivityPub client gets the 404 Fedify left.
  app.get("/users/:username{[A-Za-z0-9_]+}", (c) =>
    wantsActivityPub(c.req.header("accept")) ? c.notFound() : c.redirect(`/@${c.req.param("username")}`, 302),
  );
  app.get("/users/:username{[A-Za-z0-9_]+}/statuses/:id{[0-9]{1,20}}", (c) => {
    const { username, id } = c.req.param();
    return wantsActivityPub(c.req.header("accept")) ? c.notFound() : c.redirect(`/@${username}/${id}`, 302);
  });
}
