import { randomBytes } from "node:crypto";
import { extname } from "node:path";
import { getLogger } from "@logtape/logtape";
import type * as Fflate from "fflate";
import type { AppContext } from "../../context.ts";
import type { Backup } from "../../db/repositories/backups.ts";
import type { Status } from "../../db/repositories/statuses.ts";
import type { User } from "../../db/repositories/users.ts";

export const ARCHIVE_JOB = "data.archive";

/** One archive per week, kept a week (Mastodon's BackupPolicy and BackupCleanupScheduler). */
export const ARCHIVE_INTERVAL_MS = 7 * 86400_000;
export const ARCHIVE_RETENTION_MS = 7 * 86400_000;

/** Statuses serialised per query while the archive is built. */
const BATCH = 100;
const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";

const logger = getLogger(["gannet", "data", "archive"]);

/** What asking for an archive did: a new one being prepared, or the time the next may be asked for. */
export type ArchiveRequest = { backup: Backup } | { retryAt: Date };

/**
 * "Request your archive": a backup row and the job that builds it, unless the user asked for one
 * in the last week.
 */
export async function requestArchive(ctx: AppContext, user: User): Promise<ArchiveRequest> {
  const now = new Date();
  const since = new Date(now.getTime() - ARCHIVE_INTERVAL_MS).toISOString();
  const backup = await ctx.repos.backups.createUnlessRecent(ctx.ids.next(now), user.id, since, now.toISOString());
  if (!backup) {
    const [last] = await ctx.repos.backups.ofUser(user.id, 1);
    return { retryAt: new Date(Date.parse(last?.createdAt ?? now.toISOString()) + ARCHIVE_INTERVAL_MS) };
  }
  await ctx.queue.enqueue(ARCHIVE_JOB, { backupId: backup.id }, { attempts: 3 });
  return { backup };
}

/** The user's archives, newest first (a week's worth at most: older ones are removed). */
export function archivesOf(ctx: AppContext, user: User): Promise<Backup[]> {
  return ctx.repos.backups.ofUser(user.id, 5);
}

/** Whether the user may ask for another archive now. */
export function mayRequestArchive(archives: readonly Backup[], now = Date.now()): boolean {
  return !archives.some((b) => Date.parse(b.createdAt) > now - ARCHIVE_INTERVAL_MS);
}

/** A ready archive of `user` to download: its bytes as a stream, size and file name; else undefined. */
export async function archiveDownload(
  ctx: AppContext,
  user: User,
  id: string,
): Promise<{ stream: ReadableStream<Uint8Array>; size: number; filename: string } | undefined> {
  if (!/^[0-9]{1,20}$/.test(id)) return undefined;
  const backup = await ctx.repos.backups.getById(id);
  if (!backup || backup.userId !== user.id || !backup.processed || !backup.blobKey) return undefined;
  const stat = await ctx.blobs.stat(backup.blobKey);
  if (!stat) return undefined;
  const filename = backup.blobKey.split("/").pop() ?? "archive.zip";
  return { stream: ctx.blobs.stream(backup.blobKey, 0, stat.size - 1), size: stat.size, filename };
}

/** A ZIP being written: files are added one after the other, the output kept in memory. */
class ZipWriter {
  readonly #chunks: Uint8Array[] = [];
  readonly #fflate: typeof Fflate;
  readonly #zip: Fflate.Zip;
  #error: Error | null = null;
  #done = false;
  readonly #encoder = new TextEncoder();

  /** `fflate`, loaded when the first archive is made rather than at start-up. */
  constructor(fflate: typeof Fflate) {
    this.#fflate = fflate;
    this.#zip = new fflate.Zip((err, data, final) => {
      if (err) this.#error = err;
      else this.#chunks.push(data);
      if (final) this.#done = true;
    });
  }

  /** A file written in pieces (JSON, deflated). */
  open(name: string): { write(text: string): void; close(): void } {
    const file = new this.#fflate.ZipDeflate(name, { level: 6 });
    this.#zip.add(file);
    let pending: string[] = [];
    let size = 0;
    const flush = (final: boolean) => {
      file.push(this.#encoder.encode(pending.join("")), final);
      pending = [];
      size = 0;
    };
    return {
      write: (text) => {
        pending.push(text);
        size += text.length;
        if (size > 256 * 1024) flush(false);
      },
      close: () => flush(true),
    };
  }

  /** A file added as is (media are compressed already). */
  addStored(name: string, data: Uint8Array): void {
    const file = new this.#fflate.ZipPassThrough(name);
    this.#zip.add(file);
    file.push(data, true);
  }

  addJson(name: string, value: unknown): void {
    const f = this.open(name);
    f.write(JSON.stringify(value));
    f.close();
  }

  finish(): Uint8Array {
    this.#zip.end();
    if (this.#error) throw this.#error;
    if (!this.#done) throw new Error("the archive was not completed");
    const size = this.#chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of this.#chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The attachments' URLs as paths inside the archive (the blob key), as Mastodon's backup does. */
function localiseAttachments(ctx: AppContext, item: Record<string, unknown>): void {
  const object = item.object;
  if (!isRecord(object)) return;
  const prefix = ctx.blobs.url("");
  for (const a of [object.attachment].flat()) {
    if (isRecord(a) && typeof a.url === "string" && a.url.startsWith(prefix)) a.url = a.url.slice(prefix.length);
  }
}

/** A collection of status URIs (likes.json, bookmarks.json). */
async function uriCollection(
  ctx: AppContext,
  zip: ZipWriter,
  name: string,
  table: "favourites" | "bookmarks",
  accountId: string,
): Promise<void> {
  const f = zip.open(name);
  f.write(`{"@context":"${AS_CONTEXT}","id":"${name}","type":"OrderedCollection","orderedItems":[`);
  let total = 0;
  let cursor: string | undefined;
  for (;;) {
    const batch = await ctx.repos.dataExports.statusUrisBatch(table, accountId, cursor, 1000);
    for (const r of batch) f.write(`${total++ === 0 ? "" : ","}${JSON.stringify(r.uri)}`);
    if (batch.length < 1000) break;
    cursor = batch[batch.length - 1].id;
  }
  f.write(`],"totalItems":${total}}`);
  f.close();
}

/**
 * Builds the archive of a backup (Mastodon's BackupService, as a ZIP): `outbox.json`, an
 * OrderedCollection of the account's `Create` (posts) and `Announce` (boosts) activities as
 * federation sends them, its attachments' URLs pointing at the files under
 * `media_attachments/...`; `likes.json` and `bookmarks.json` (status URIs); `actor.json` with
 * the avatar and header beside it. Stored in the blob store; the user gets an e-mail.
 */
export async function buildArchive(ctx: AppContext, payload: { backupId: string }): Promise<void> {
  const backup = typeof payload?.backupId === "string" ? await ctx.repos.backups.getById(payload.backupId) : undefined;
  if (!backup || backup.processed) return;
  const user = await ctx.repos.users.getById(backup.userId);
  const account = user && (await ctx.repos.accounts.getById(user.accountId));
  if (!user || !account) return;
  const [federation, note, statuses, actorModule] = await Promise.all([
    ctx.federation(),
    import("../../federation/outbox/note.ts"),
    import("../../federation/outbox/statuses.ts"),
    import("../../federation/outbox/actor.ts"),
  ]);
  const fctx = federation.createContext(new URL(ctx.config.baseUrl), ctx);
  const zip = new ZipWriter(await import("fflate"));
  const mediaKeys: string[] = [];

  const outbox = zip.open("outbox.json");
  outbox.write(`{"@context":"${AS_CONTEXT}","id":"outbox.json","type":"OrderedCollection","orderedItems":[`);
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const batch: Status[] = await ctx.repos.dataExports.statusesBatch(account.id, after, BATCH);
    const posts = batch.filter((s) => s.reblogOfId === null);
    const boosts = batch.filter((s) => s.reblogOfId !== null);
    const [sources, originals] = await Promise.all([
      note.loadNoteSources(ctx, posts),
      ctx.repos.statuses.getByIds(boosts.map((s) => s.reblogOfId as string)),
    ]);
    const authors = await ctx.repos.accounts.getByIds([...new Set(originals.map((o) => o.accountId))]);
    const sourceOf = new Map(sources.map((s) => [s.status.id, s]));
    const originalOf = new Map(originals.map((o) => [o.id, o]));
    const authorOf = new Map(authors.map((a) => [a.id, a]));
    for (const s of batch) {
      let activity: { toJsonLd(): Promise<unknown> } | undefined;
      if (s.reblogOfId === null) {
        const src = sourceOf.get(s.id);
        if (!src) continue;
        for (const m of src.media) if (m.fileKey) mediaKeys.push(m.fileKey);
        activity = note.createOf(fctx, src, note.toNote(fctx, src));
      } else {
        const original = originalOf.get(s.reblogOfId);
        const author = original && authorOf.get(original.accountId);
        if (!original || !author || original.deletedAt !== null) continue;
        activity = statuses.announce(fctx, account, s, original, author);
      }
      const item = (await activity.toJsonLd()) as Record<string, unknown>;
      delete item["@context"];
      localiseAttachments(ctx, item);
      outbox.write(`${total++ === 0 ? "" : ","}${JSON.stringify(item)}`);
    }
    if (batch.length < BATCH) break;
    after = batch[batch.length - 1].id;
  }
  outbox.write(`],"totalItems":${total}}`);
  outbox.close();

  for (const key of mediaKeys) {
    const blob = await ctx.blobs.get(key);
    if (blob) zip.addStored(key, blob.data);
    else logger.warn("Could not add {key} to the archive of {user}: the file is missing", { key, user: user.id });
  }

  await uriCollection(ctx, zip, "likes.json", "favourites", account.id);
  await uriCollection(ctx, zip, "bookmarks.json", "bookmarks", account.id);

  const actor = (await (await actorModule.buildLocalActor(fctx, account)).toJsonLd()) as Record<string, unknown>;
  for (const [field, name, key] of [
    ["icon", "avatar", account.avatarPath],
    ["image", "header", account.headerPath],
  ] as const) {
    const blob = key ? await ctx.blobs.get(key) : undefined;
    const file = `${name}${extname(key ?? "")}`;
    if (blob) zip.addStored(file, blob.data);
    if (isRecord(actor[field])) (actor[field] as Record<string, unknown>).url = file;
  }
  actor.outbox = "outbox.json";
  actor.likes = "likes.json";
  actor.bookmarks = "bookmarks.json";
  zip.addJson("actor.json", actor);

  const data = zip.finish();
  const stamp = new Date().toISOString().replace(/[-:T]/g, "").replace(/\..*$/, "");
  // An unguessable folder: the blob store serves its files publicly by key.
  const key = `backups/dumps/${backup.id}/${randomBytes(16).toString("hex")}/archive-${stamp}.zip`;
  await ctx.blobs.put(key, data, "application/zip");
  await ctx.repos.backups.markProcessed(backup.id, key, data.length);
  await ctx.mailer.send({
    to: user.email,
    subject: "Your archive is ready for download",
    text: `Hello @${account.username},\n\nThe archive of your posts and media you asked for is ready. Download it from ${ctx.config.baseUrl}/settings/export within a week; it is removed after that.\n`,
  });
}

/** Archives older than a week go, files and rows (a periodic task). */
export async function purgeOldArchives(ctx: AppContext): Promise<number> {
  const before = new Date(Date.now() - ARCHIVE_RETENTION_MS).toISOString();
  let removed = 0;
  for (const b of await ctx.repos.backups.olderThan(before, 500)) {
    if (b.blobKey) await ctx.blobs.delete(b.blobKey);
    await ctx.repos.backups.delete(b.id);
    removed += 1;
  }
  return removed;
}
