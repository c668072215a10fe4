import { z } from "zod";
import type { DocArea, RouteDoc } from "../types.ts";
import { d } from "./common.ts";

/**
 * What Fedify answers through src/http/federation-bridge.ts (`app.use`, outside Hono's route
 * table): WebFinger, actors' inboxes and collections, the shared inbox, the instance actor.
 */
const activity = {
  schema: { type: "object", description: "ActivityStreams JSON-LD" },
  type: "application/activity+json",
  description: "ActivityPub JSON",
};
const accepted = { schema: { type: "string" }, type: "text/plain", description: "Accepted for processing" };
const signed =
  "Must carry an HTTP Signature (draft-cavage or RFC 9421) of an actor whose key can be fetched; an unsigned, forged or blocked delivery is refused before processing.";
const external = { auth: "none" as const, external: true, tags: ["Federation"] };
const user = { pathDescriptions: { username: "A local username" } };
const collection = (summary: string): RouteDoc =>
  d(summary, activity, {
    ...external,
    ...user,
    query: z.object({ cursor: z.string().optional(), page: z.string().optional() }),
    errors: [404],
  });
const inbox = (summary: string): RouteDoc =>
  d(summary, accepted, {
    ...external,
    status: 202,
    description: signed,
    body: z.object({ type: z.string(), actor: z.string() }).loose(),
    answers: { 400: null, 401: null, 403: null, 429: null },
  });

export const federationDocs: DocArea = {
  tag: "Federation",
  description: "ActivityPub and WebFinger, answered by Fedify",
  routes: {
    "GET /.well-known/webfinger": d(
      "WebFinger: an account by `acct:` URI",
      {
        schema: { type: "object" },
        type: "application/jrd+json",
        description: "A JSON Resource Descriptor with the actor's links",
      },
      {
        ...external,
        tags: ["Discovery"],
        query: z.object({ resource: z.string().describe("`acct:user@domain` or an actor URL") }),
        errors: [400, 404],
      },
    ),
    "POST /inbox": inbox("The shared inbox"),
    "POST /users/:username/inbox": { ...inbox("An actor's inbox"), ...user },
    "GET /actor": d("The instance actor (signs fetches on the server's behalf)", activity, external),
    "GET /users/:username/outbox": collection("An actor's outbox (public activities)"),
    "GET /users/:username/followers": collection("An actor's followers"),
    "GET /users/:username/following": collection("Whom an actor follows"),
    "GET /users/:username/collections/featured": collection("An actor's pinned statuses"),
    "GET /users/:username/collections/tags": collection("An actor's featured hashtags"),
  },
};
