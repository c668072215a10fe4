import type { Context, Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { html, type SafeHtml } from "../pages/html.ts";

/**
 * Content negotiation on profile and post URLs (Mastodon's two types): a client asking for
 * ActivityPub JSON at a page's URL gets the actor or note from Fedify, a browser at the
 * ActivityPub URL (`/users/...`) is sent to the page.
 */

/** Whether the client asked for ActivityPub JSON rather than a page. */
export function wantsActivityPub(accept: string | undefined): boolean {
  if (!accept) return false;
  return /application\/activity\+json|application\/ld\+json/i.test(accept);
}

/** Answers from Fedify as if the request had named the canonical ActivityPub URL. */
export async function fromFederation(c: Context<HonoEnv>, path: string): Promise<Response> {
  const ctx = c.env.ctx;
  const federation = await ctx.federation();
  const request = new Request(new URL(path, ctx.config.baseUrl), { headers: c.req.raw.headers });
  return federation.fetch(request, { contextData: ctx });
}

/**
 * The ActivityPub twin of a page, for clients and servers that read HTML first: a `<link>` for
 * the page's head, and the same as a `Link` header (set here, with `Vary: Accept`).
 */
export function alternate(c: Context<HonoEnv>, uri: string): SafeHtml {
  c.header("Link", `<${uri}>; rel="alternate"; type="application/activity+json"`);
  c.header("Vary", "Accept");
  return html`<link rel="alternate" type="application/activity+json" href="${uri}">\n`;
}

/**
 * Fedify answered these when ActivityPub was asked for and it had the object; a browser goes to
 * the page, an ActivityPub client gets the 404 Fedify left.
 */
export function negotiationRoutes(app: Hono<HonoEnv>): void {
  app.get("/users/:username{[A-Za-z0-9_]+}", (c) =>
    wantsActivityPub(c.req.header("accept")) ? c.notFound() : c.redirect(`/@${c.req.param("username")}`, 302),
  );
  app.get("/users/:username{[A-Za-z0-9_]+}/statuses/:id{[0-9]{1,20}}", (c) => {
    const { username, id } = c.req.param();
    return wantsActivityPub(c.req.header("accept")) ? c.notFound() : c.redirect(`/@${username}/${id}`, 302);
  });
}
