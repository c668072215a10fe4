import { Create, Document, Note, Question, Update } from "@fedify/vocab";

const TOOT = "http://joinmastodon.org/ns#";

/** Mastodon's media extensions, which Fedify's vocabulary does not model. */
export interface MediaExtras {
  blurhash: string | null;
  /** x and y, each from -1 to 1. */
  focalPoint: [number, number] | null;
}

type ToJsonLdOptions = Parameters<Document["toJsonLd"]>[0];

// Fedify's `clone` calls `new this.constructor({ id }, options)`, so these subclasses keep the
// base constructors; the extras live beside the instance.
const extrasOf = new WeakMap<object, MediaExtras>();

/**
 * A `Document` that also carries Mastodon's `blurhash` and `focalPoint`: Fedify expands objects
 * before compacting them, so they are added as `toot:` IRIs there (and as plain keys on Fedify's
 * direct compact path); the objects that hold documents rename them (below).
 */
class MastodonDocument extends Document {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    const extras = extrasOf.get(this);
    if (!extras || !json || typeof json !== "object") return json;
    const { blurhash, focalPoint } = extras;
    if (options.format === "expand") {
      const node = (json as Record<string, unknown>[])[0];
      if (node && blurhash !== null) node[`${TOOT}blurhash`] = [{ "@value": blurhash }];
      if (node && focalPoint !== null)
        node[`${TOOT}focalPoint`] = [{ "@list": focalPoint.map((v) => ({ "@value": v })) }];
    } else if (options.format === undefined) {
      const node = json as Record<string, unknown>;
      if (blurhash !== null) node.blurhash = blurhash;
      if (focalPoint !== null) node.focalPoint = focalPoint;
    }
    return json;
  }
}

export function mastodonDocument(values: ConstructorParameters<typeof Document>[0], extras: MediaExtras): Document {
  const d = new MastodonDocument(values);
  extrasOf.set(d, extras);
  return d;
}

/** Mastodon's term definitions for them, added to the `@context` of documents that use them. */
const MEDIA_TERMS = {
  blurhash: "toot:blurhash",
  focalPoint: { "@container": "@list", "@id": "toot:focalPoint" },
};

/**
 * Compacted JSON-LD with `toot:blurhash` and `toot:focalPoint` written as the `blurhash` and
 * `focalPoint` keys Mastodon reads by name (it does not run a JSON-LD processor on objects), and
 * their definitions added to the top-level `@context` so the document means the same.
 */
function withMediaTerms(json: unknown): unknown {
  let used = false;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== "object") return v;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === "toot:blurhash") {
        out.blurhash = x;
        used = true;
      } else if (k === "toot:focalPoint") {
        out.focalPoint = x && typeof x === "object" && "@list" in x ? (x as { "@list": unknown })["@list"] : x;
        used = true;
      } else out[k] = k === "@context" ? x : walk(x);
    }
    return out;
  };
  const out = walk(json) as Record<string, unknown>;
  if (!used || !out || typeof out !== "object" || !("@context" in out)) return out;
  const context = Array.isArray(out["@context"]) ? [...out["@context"]] : [out["@context"]];
  out["@context"] = [...context, MEDIA_TERMS];
  return out;
}

/** A `Note` whose compacted JSON-LD carries Mastodon's media terms by their names. */
export class MastodonNote extends Note {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options.format === "expand" ? json : withMediaTerms(json);
  }
}

/** A `Question` (poll) likewise. */
export class MastodonQuestion extends Question {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options.format === "expand" ? json : withMediaTerms(json);
  }
}

/** A `Create` likewise: Fedify compacts the whole activity before delivering it. */
export class MastodonCreate extends Create {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options.format === "expand" ? json : withMediaTerms(json);
  }
}

/** An `Update` likewise (edits carry the note again). */
export class MastodonUpdate extends Update {
  override async toJsonLd(options: ToJsonLdOptions = {}): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options.format === "expand" ? json : withMediaTerms(json);
  }
}
