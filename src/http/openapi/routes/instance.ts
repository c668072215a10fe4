import type { DocArea, RouteDoc } from "../types.ts";
import { d, html, png } from "./common.ts";

const pub = { auth: "none" as const };
const terms = "TermsOfService";
const image = (summary: string): RouteDoc => d(summary, png, pub);
const activity = {
  schema: { type: "object", description: "ActivityStreams JSON-LD" },
  type: "application/activity+json",
  description: "ActivityPub JSON (with `Accept: application/activity+json`)",
};
const binary = {
  schema: { type: "string", contentEncoding: "binary" },
  type: "application/octet-stream",
  description: "The file",
};

/** The instance, discovery documents, the server's images, public pages and files. */
export const instanceDocs: DocArea = {
  tag: "Instance",
  description: "What the server is: settings, rules, languages, NodeInfo, images",
  routes: {
    "GET /api/v1/instance": d("The server (v1 shape)", "InstanceV1", { ...pub, deprecated: true }),
    "GET /api/v2/instance": d("The server", "Instance", pub),
    "GET /api/v1/instance/peers": d(
      "Domains this server knows",
      { schema: { type: "array", items: { type: "string" } } },
      pub,
    ),
    "GET /api/v1/instance/activity": d("Weekly activity of the last 12 weeks", "Activity[]", pub),
    "GET /api/v1/instance/rules": d("The server's rules", "Rule[]", pub),
    "GET /api/v1/instance/extended_description": d("The server's long description", "ExtendedDescription", pub),
    "GET /api/v1/instance/privacy_policy": d("The privacy policy", "PrivacyPolicy", pub),
    "GET /api/v1/instance/terms_of_service": d("The terms of service in force", terms, { ...pub, errors: [404] }),
    "GET /api/v1/instance/terms_of_service/:date": d("The terms of service of a date", terms, {
      ...pub,
      pathDescriptions: { date: "YYYY-MM-DD" },
    }),
    "GET /api/v1/instance/domain_blocks": d("Moderated domains (none published)", "DomainBlock[]", pub),
    "GET /api/v1/instance/languages": d("Languages statuses may be written in", "Language[]", pub),
    "GET /api/v1/custom_emojis": d("Custom emojis of the server", "CustomEmoji[]", pub),
    "GET /.well-known/nodeinfo": d("Where the NodeInfo documents are", "NodeInfoLinks", {
      ...pub,
      tags: ["Discovery"],
    }),
    "GET /nodeinfo/2.0": d("NodeInfo 2.0", "NodeInfo", { ...pub, tags: ["Discovery"] }),
    "GET /nodeinfo/2.1": d("NodeInfo 2.1", "NodeInfo", { ...pub, tags: ["Discovery"] }),
    "GET /.well-known/host-meta": d(
      "Where WebFinger is (XRD)",
      { schema: { type: "string" }, type: "application/xrd+xml", description: "An XRD document" },
      { ...pub, tags: ["Discovery"] },
    ),
    "GET /instance/banner.png": image("The server's banner"),
    "GET /instance/banner@2x.png": image("The server's banner, twice the size"),
    "GET /instance/icon-36.png": image("The server's icon, 36 px"),
    "GET /instance/icon-48.png": image("The server's icon, 48 px"),
    "GET /instance/icon-72.png": image("The server's icon, 72 px"),
    "GET /instance/icon-96.png": image("The server's icon, 96 px"),
    "GET /instance/icon-144.png": image("The server's icon, 144 px"),
    "GET /instance/icon-192.png": image("The server's icon, 192 px"),
    "GET /instance/icon-256.png": image("The server's icon, 256 px"),
    "GET /instance/icon-512.png": image("The server's icon, 512 px"),
    "GET /health": d("Liveness", { schema: { type: "string", const: "OK" }, type: "text/plain" }, pub),
    "GET /api/openapi.json": d(
      "This document (OpenAPI 3.1)",
      { schema: { type: "object" }, description: "The OpenAPI document" },
      pub,
    ),
    "GET /:handle{@[A-Za-z0-9_]+}": d("A local profile's page", html, {
      description: "With `Accept: application/activity+json`, the actor.",
      answers: { 200: html },
      pathDescriptions: { handle: "`@username`" },
      ...pub,
      tags: ["Web"],
    }),
    "GET /:handle{@[A-Za-z0-9_]+}/:id{[0-9]{1,20}}": d("A local status's page", html, {
      description: "With `Accept: application/activity+json`, the Note.",
      pathDescriptions: { handle: "`@username`" },
      ...pub,
      tags: ["Web"],
    }),
    "GET /users/:username{[A-Za-z0-9_]+}": d("An actor (ActivityPub) or, for a browser, its page", activity, {
      description:
        "Fedify answers ActivityPub requests (signed fetches when authorized fetch is on); a browser is redirected to `/@username`.",
      answers: { 302: null, 410: "Error" },
      ...pub,
      tags: ["Federation"],
    }),
    "GET /users/:username{[A-Za-z0-9_]+}/statuses/:id{[0-9]{1,20}}": d(
      "A Note (ActivityPub) or, for a browser, its page",
      activity,
      {
        answers: { 302: null },
        ...pub,
        tags: ["Federation"],
      },
    ),
    "GET /system/*": d("Stored media and images", binary, {
      description: "Honours `Range` (206).",
      answers: { 206: binary },
      errors: [404],
      ...pub,
      tags: ["Web"],
    }),
    "GET /avatars/original/missing.png": image("The default avatar"),
    "GET /headers/original/missing.png": image("The default header"),
    "GET /media_proxy/:id{[0-9]+}/:variant{original|small}": d("A remote attachment, cached on demand", null, {
      status: 302,
      description: "Redirects to the cached copy.",
      answers: { 429: "Error" },
      ...pub,
      tags: ["Web"],
    }),
  },
};
