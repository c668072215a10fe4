import type { Hono } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { isId } from "../../../../lib/ids.ts";
import { getMarkers, MARKER_TIMELINES, markersJson, saveMarkers } from "../../../../services/markers.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { asArray, asHash, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

const known = (t: unknown): t is string => typeof t === "string" && (MARKER_TIMELINES as readonly string[]).includes(t);

/** 1.19 Markers: reading positions in the home timeline and the notifications. */
export function markerRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v1/markers", requireUser("read", "read:statuses"), async (c) => {
    const timelines = [...new Set((asArray((await readParams(c)).timeline) ?? []).filter(known))];
    return c.json(markersJson(await getMarkers(c.env.ctx, currentAccount(c).id, timelines)));
  });

  app.post("/api/v1/markers", requireUser("write", "write:statuses"), async (c) => {
    const p = await readParams(c);
    const positions = new Map<string, string>();
    for (const timeline of MARKER_TIMELINES) {
      const given = asHash(p[timeline]);
      if (!given) continue;
      let id = given.last_read_id;
      if (typeof id === "number" && Number.isSafeInteger(id)) id = String(id);
      if (!isId(id)) throw new ApiError(422, "Validation failed: Last read can't be blank");
      positions.set(timeline, id);
    }
    const saved = await saveMarkers(c.env.ctx, currentAccount(c).id, positions);
    // Mastodon answers a concurrent update (a stale lock version) with 409 and an empty object.
    if (saved === "conflict") return c.json({}, 409);
    return c.json(markersJson(saved));
  });
}
