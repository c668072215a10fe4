import { Person, Service } from "@fedify/vocab";
import { DEVICES_IRI } from "./terms.ts";

type ToJsonLdOptions = Parameters<Person["toJsonLd"]>[0];

/** The actor's `devices` collection (Mastodon's `/users/:username/collections/devices`). */
export const devicesUrlOf = (actorId: URL): string => `${actorId.href}/collections/devices`;

/**
 * Mastodon's actors carry `devices`, the collection of their end-to-end encryption devices, which
 * Fedify's vocabulary lacks: it is added to the actor's own document (top level, where the term
 * can be defined in its `@context`), derived from the actor's id so that Fedify's clones keep it.
 */
async function withDevices(json: unknown, id: URL | null): Promise<unknown> {
  if (!id || json === null || typeof json !== "object" || !("@context" in json)) return json;
  const node = json as Record<string, unknown>;
  const context = Array.isArray(node["@context"]) ? node["@context"] : [node["@context"]];
  return {
    ...node,
    "@context": [...context, { devices: { "@id": DEVICES_IRI, "@type": "@id" } }],
    devices: devicesUrlOf(id),
  };
}

export class DevicesPerson extends Person {
  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options?.format === "expand" ? json : withDevices(json, this.id);
  }
}

export class DevicesService extends Service {
  override async toJsonLd(options?: ToJsonLdOptions): Promise<unknown> {
    const json = await super.toJsonLd(options);
    return options?.format === "expand" ? json : withDevices(json, this.id);
  }
}
