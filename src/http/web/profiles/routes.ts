import type { Hono } from "hono";
import { remoteProfileUrl } from "../../../services/web/public-pages.ts";
import type { HonoEnv } from "../../types.ts";
import { fromFederation, negotiationRoutes, wantsActivityPub } from "./negotiation.ts";
import { profilePage } from "./profile-page.ts";
import { notFoundPage } from "./shared.ts";
import { embedPage, statusPage } from "./status-page.ts";
import { tagPage } from "./tag-page.ts";

const HANDLE = "/:handle{@[A-Za-z0-9_]+}";
const username = (handle: string): string => handle.slice(1);

/**
 * Public profiles, posts with their threads, hashtag pages and embeds (docs/web-profiles.md).
 * Profile and post URLs are also ActivityPub URLs: a client asking for ActivityPub JSON gets the
 * actor or the note (negotiation.ts).
 */
export function profileRoutes(app: Hono<HonoEnv>): void {
  app.get(HANDLE, (c) => {
    const name = username(c.req.param("handle"));
    if (wantsActivityPub(c.req.header("accept"))) return fromFederation(c, `/users/${name}`);
    c.header("Vary", "Accept");
    return profilePage(c, name, "posts");
  });
  app.get(`${HANDLE}/with_replies`, (c) => profilePage(c, username(c.req.param("handle")), "with_replies"));
  app.get(`${HANDLE}/media`, (c) => profilePage(c, username(c.req.param("handle")), "media"));

  app.get(`${HANDLE}/:id{[0-9]{1,20}}`, (c) => {
    const name = username(c.req.param("handle"));
    const id = c.req.param("id");
    if (wantsActivityPub(c.req.header("accept"))) return fromFederation(c, `/users/${name}/statuses/${id}`);
    c.header("Vary", "Accept");
    return statusPage(c, name, id);
  });
  app.get(`${HANDLE}/:id{[0-9]{1,20}}/embed`, (c) => embedPage(c, username(c.req.param("handle")), c.req.param("id")));

  // Remote accounts have no page here: a browser goes to the account's own page.
  app.get("/:acct{@[A-Za-z0-9_]+@[A-Za-z0-9.-]+[A-Za-z0-9]}", async (c) => {
    const [name, domain] = username(c.req.param("acct")).split("@");
    const url = await remoteProfileUrl(c.env.ctx, name, domain.toLowerCase());
    return url ? c.redirect(url, 302) : notFoundPage(c);
  });

  // Hashtags hold no dots: `/tags/NAME.rss` is the feed (feeds area).
  app.get("/tags/:name{[^/.]+}", (c) => tagPage(c, c.req.param("name")));

  negotiationRoutes(app);
}
