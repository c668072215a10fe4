import type { AccountData } from "./account.ts";
import type { BlobUrl } from "./media-attachment.ts";

/** The Profile entity (4.6) of the signed-in account, from what the account row holds. */
export function serializeProfile(a: AccountData, blobUrl: BlobUrl): Record<string, unknown> {
  const avatar = a.avatarPath ? blobUrl(a.avatarPath) : null;
  const header = a.headerPath ? blobUrl(a.headerPath) : null;
  return {
    id: a.id,
    display_name: a.displayName,
    note: a.noteSource,
    fields: a.fieldsSource.map((f, i) => ({
      name: f.name,
      value: f.value,
      verified_at: a.fields[i]?.verified_at ?? null,
    })),
    avatar,
    avatar_static: avatar,
    avatar_description: "",
    header,
    header_static: header,
    header_description: "",
    locked: a.locked,
    bot: a.actorType === "Service" || a.actorType === "Application",
    hide_collections: a.hideCollections,
    discoverable: a.discoverable,
    indexable: a.indexable,
    show_media: true,
    show_media_replies: true,
    show_featured: true,
    attribution_domains: [],
  };
}
