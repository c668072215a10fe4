import type { Hono } from "hono";
import { notFound } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import { addReaction, dismissAnnouncement, removeReaction } from "../../../../services/announcements/reactions.ts";
import { publishedAnnouncementsJson } from "../../../../services/announcements/views.ts";
import { currentAccount, requireSignedIn, requireUser } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish } from "../../../validate.ts";

/** A path id that cannot name a record is a 404, as Mastodon's `find` gives. */
function idParam(id: string): string {
  if (!isId(id)) throw notFound();
  return id;
}

/** 1.18 Announcements (made with `gannet announcements`; Mastodon has no admin API for them). */
export function announcementRoutes(app: Hono<HonoEnv>): void {
  // Any user token, whatever its scopes (Mastodon's controller asks for none; 422 without one).
  app.get("/api/v1/announcements", requireSignedIn(), async (c) => {
    const given = (await readParams(c)).with_dismissed;
    // Upstream serves dismissed ones too (with `read`); `with_dismissed=false` leaves them out, as documented.
    const parsed = boolish.safeParse(given);
    const withDismissed = given === undefined || !parsed.success || parsed.data;
    return c.json(await publishedAnnouncementsJson(c.env.ctx, currentAccount(c).id, withDismissed));
  });

  app.post("/api/v1/announcements/:id/dismiss", requireUser("write", "write:accounts"), async (c) => {
    await dismissAnnouncement(c.env.ctx, currentAccount(c).id, idParam(c.req.param("id")));
    return c.json({});
  });

  app.put("/api/v1/announcements/:id/reactions/:name", requireUser("write", "write:favourites"), async (c) => {
    await addReaction(c.env.ctx, currentAccount(c).id, idParam(c.req.param("id")), c.req.param("name"));
    return c.json({});
  });

  app.delete("/api/v1/announcements/:id/reactions/:name", requireUser("write", "write:favourites"), async (c) => {
    await removeReaction(c.env.ctx, currentAccount(c).id, idParam(c.req.param("id")), c.req.param("name"));
    return c.json({});
  });
}
