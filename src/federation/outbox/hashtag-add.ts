import { Add, Remove } from "@fedify/vocab";

type JsonLd = Record<string, unknown>;

/**
 * Mastodon's featured-tag activities carry a `Hashtag` as their object, which Fedify's `Add` and
 * `Remove` cannot hold (a Hashtag is a Link, their object an Object). These subclasses hold the
 * tag's URL as the object and write it out as the Hashtag node (with the `Hashtag` term defined,
 * as Mastodon does). Fedify signs the JSON they write and its clones keep the subclass (the
 * delivery job skips Fedify's fan-out queue, which would parse the activity again).
 */
async function withHashtag(json: unknown, name: string): Promise<unknown> {
  const node = json as JsonLd;
  if (typeof node.object !== "string") return json;
  const context = Array.isArray(node["@context"]) ? node["@context"] : [node["@context"]];
  return {
    ...node,
    "@context": [...context, { Hashtag: "as:Hashtag" }],
    object: { type: "Hashtag", href: node.object, name },
  };
}

type ToJsonLdOptions = Parameters<Add["toJsonLd"]>[0];

export class HashtagAdd extends Add {
  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options?.format === "expand" ? json : withHashtag(json, hashtagName(this.objectId));
  }
}

export class HashtagRemove extends Remove {
  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options?.format === "expand" ? json : withHashtag(json, hashtagName(this.objectId));
  }
}

/** `#name` from the tag's URL (`…/tags/name`). */
function hashtagName(href: URL | null): string {
  const last = href?.pathname.split("/").pop() ?? "";
  return `#${decodeURIComponent(last)}`;
}
