import { type Kysely, sql } from "kysely";
import type { DB } from "../schema.ts";
import { type MediaAttachment, toMediaAttachment } from "./media.ts";

/** A remote account's avatar or header as cached (or not) here. */
export interface RemoteProfileImage {
  accountId: string;
  kind: "avatar" | "header";
  path: string | null;
  remoteUrl: string;
}

/**
 * All SQL of the remote media cache: copies of remote attachments, avatars and headers kept in
 * the blob store (`file_key`, `avatar_path`, ... set) and removed after the retention period
 * (set back to null; the rows and their remote URLs stay).
 */
export class RemoteMediaRepository {
  readonly #db: Kysely<DB>;
  constructor(db: Kysely<DB>) {
    this.#db = db;
  }

  /**
   * Records the cached files of a remote attachment, unless another worker cached it first
   * (answers false: the caller's files are not used).
   */
  async setAttachmentFiles(
    id: string,
    files: {
      type: string;
      file_key: string;
      file_content_type: string;
      file_size: number;
      small_key: string | null;
      blurhash: string | null;
      meta: string;
    },
  ): Promise<boolean> {
    const r = await this.#db
      .updateTable("media_attachments")
      .set({ ...files, processing: "complete", updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .where("file_key", "is", null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Remote attachments cached here and created before `beforeIso`, oldest first. */
  async listCachedAttachmentsBefore(beforeIso: string, limit: number): Promise<MediaAttachment[]> {
    const rows = await this.#db
      .selectFrom("media_attachments")
      .selectAll()
      .where("remote_url", "is not", null)
      .where("file_key", "is not", null)
      .where("created_at", "<", beforeIso)
      .orderBy("created_at")
      .limit(limit)
      .execute();
    return rows.map(toMediaAttachment);
  }

  /** Forgets an attachment's cached copy (its files are deleted by the caller). */
  async clearAttachmentFiles(id: string): Promise<void> {
    await this.#db
      .updateTable("media_attachments")
      .set({ file_key: null, small_key: null, updated_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
  }

  /**
   * The account's avatar and header (remote accounts only) that have a remote URL or a cached
   * copy (`remoteUrl` "" when the profile no longer names an image).
   */
  async profileImages(accountId: string): Promise<RemoteProfileImage[]> {
    const r = await this.#db
      .selectFrom("accounts")
      .select(["id", "avatar_path", "avatar_remote_url", "header_path", "header_remote_url"])
      .where("id", "=", accountId)
      .where("domain", "is not", null)
      .executeTakeFirst();
    if (!r) return [];
    const out: RemoteProfileImage[] = [];
    if (r.avatar_remote_url || r.avatar_path)
      out.push({ accountId, kind: "avatar", path: r.avatar_path, remoteUrl: r.avatar_remote_url ?? "" });
    if (r.header_remote_url || r.header_path)
      out.push({ accountId, kind: "header", path: r.header_path, remoteUrl: r.header_remote_url ?? "" });
    return out;
  }

  /**
   * Records a cached avatar or header, only while the account still names the same remote
   * image (a profile update may have replaced it meanwhile); answers whether it was recorded.
   * `previous` is the path the caller saw (null when there was none).
   */
  async setProfileImage(
    image: RemoteProfileImage,
    path: string,
    contentType: string,
    previous: string | null,
  ): Promise<boolean> {
    const q =
      image.kind === "avatar"
        ? this.#db
            .updateTable("accounts")
            .set({ avatar_path: path, avatar_content_type: contentType })
            .where("avatar_remote_url", "=", image.remoteUrl)
            .where((eb) => (previous === null ? eb("avatar_path", "is", null) : eb("avatar_path", "=", previous)))
        : this.#db
            .updateTable("accounts")
            .set({ header_path: path, header_content_type: contentType })
            .where("header_remote_url", "=", image.remoteUrl)
            .where((eb) => (previous === null ? eb("header_path", "is", null) : eb("header_path", "=", previous)));
    const r = await q.where("id", "=", image.accountId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /**
   * Remote accounts with a cached avatar or header not fetched since `beforeIso` (their last
   * refresh, or their last change when never refreshed), oldest first.
   */
  async listCachedProfilesBefore(beforeIso: string, limit: number): Promise<RemoteProfileImage[]> {
    const rows = await this.#db
      .selectFrom("accounts")
      .select(["id", "avatar_path", "avatar_remote_url", "header_path", "header_remote_url"])
      .where("domain", "is not", null)
      .where((eb) => eb.or([eb("avatar_path", "is not", null), eb("header_path", "is not", null)]))
      .where(sql<string>`coalesce(fetched_at, updated_at)`, "<", beforeIso)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.flatMap((r) => profileImagesOf(r));
  }

  /** Forgets a cached avatar or header (the file is deleted by the caller). */
  async clearProfileImage(accountId: string, kind: "avatar" | "header", path: string): Promise<void> {
    const q =
      kind === "avatar"
        ? this.#db.updateTable("accounts").set({ avatar_path: null }).where("avatar_path", "=", path)
        : this.#db.updateTable("accounts").set({ header_path: null }).where("header_path", "=", path);
    await q.where("id", "=", accountId).execute();
  }

  /** Remote attachments cached here of accounts of `domain` or its subdomains. */
  async listCachedAttachmentsOfDomain(domain: string, limit: number): Promise<MediaAttachment[]> {
    const rows = await this.#db
      .selectFrom("media_attachments")
      .innerJoin("accounts", "accounts.id", "media_attachments.account_id")
      .selectAll("media_attachments")
      .where("media_attachments.remote_url", "is not", null)
      .where("media_attachments.file_key", "is not", null)
      .where((eb) => eb.or([eb("accounts.domain", "=", domain), eb("accounts.domain", "like", `%.${domain}`)]))
      .limit(limit)
      .execute();
    return rows.map(toMediaAttachment);
  }

  /** Cached avatars and headers of accounts of `domain` or its subdomains. */
  async listCachedProfilesOfDomain(domain: string, limit: number): Promise<RemoteProfileImage[]> {
    const rows = await this.#db
      .selectFrom("accounts")
      .select(["id", "avatar_path", "avatar_remote_url", "header_path", "header_remote_url"])
      .where((eb) => eb.or([eb("domain", "=", domain), eb("domain", "like", `%.${domain}`)]))
      .where((eb) => eb.or([eb("avatar_path", "is not", null), eb("header_path", "is not", null)]))
      .limit(limit)
      .execute();
    return rows.flatMap((r) => profileImagesOf(r));
  }
}

function profileImagesOf(r: {
  id: string | number;
  avatar_path: string | null;
  avatar_remote_url: string | null;
  header_path: string | null;
  header_remote_url: string | null;
}): RemoteProfileImage[] {
  const accountId = String(r.id);
  const out: RemoteProfileImage[] = [];
  if (r.avatar_path) out.push({ accountId, kind: "avatar", path: r.avatar_path, remoteUrl: r.avatar_remote_url ?? "" });
  if (r.header_path) out.push({ accountId, kind: "header", path: r.header_path, remoteUrl: r.header_remote_url ?? "" });
  return out;
}
