import type { Hono } from "hono";
import { deviceJson, OLM_CONTEXT, oneTimeKeyJson } from "../../../../federation/crypto/terms.ts";
import { claimForRemote, devicesCollection } from "../../../../services/crypto/federation.ts";
import type { HonoEnv } from "../../../types.ts";

const ACTIVITY_JSON = "application/activity+json; charset=utf-8";

const activity = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": ACTIVITY_JSON } });

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * What other servers fetch to reach an account's end-to-end encryption devices, outside Fedify's
 * routes (its vocabulary has no Device): the actor's `devices` collection, a public `Collection`
 * of `Device`s as Mastodon served it, and the `claim` endpoint each device names, where a signed
 * POST takes one of the device's one-time keys for good.
 */
export function cryptoFederationRoutes(app: Hono<HonoEnv>): void {
  app.get("/users/:username/collections/devices", async (c) => {
    const found = await devicesCollection(c.env.ctx, c.req.param("username"));
    if (!found) return text(404, "Not Found");
    const id = `${found.actorUrl}/collections/devices`;
    return activity({
      "@context": ["https://www.w3.org/ns/activitystreams", OLM_CONTEXT],
      id,
      type: "Collection",
      totalItems: found.devices.length,
      items: found.devices.map((d) => deviceJson(d, `${found.actorUrl}/claim?id=${encodeURIComponent(d.deviceId)}`)),
    });
  });

  app.post("/users/:username/claim", async (c) => {
    const key = await claimForRemote(c.env.ctx, c.req.raw, c.req.param("username"), c.req.query("id"));
    if (key === "unsigned") return text(401, "Request not signed");
    if (!key) return text(404, "Not Found");
    return activity(oneTimeKeyJson(key));
  });
}
