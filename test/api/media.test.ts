import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { purgeUnattachedMedia } from "../../src/services/media/media-attachments.ts";
import { processMediaJob, resumeStalledMediaProcessing } from "../../src/services/media/process-job.ts";
import { prepareStatusMedia, removeStatusMedia } from "../../src/services/media/status-media.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const image = (w: number, h: number, color = "#3366ff") =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } });

/** One second of 8 kHz mono 16-bit silence. */
function wav(seconds = 1, rate = 8000): Uint8Array {
  const dataSize = seconds * rate * 2;
  const b = Buffer.alloc(44 + dataSize);
  b.write("RIFF", 0, "ascii");
  b.writeUInt32LE(36 + dataSize, 4);
  b.write("WAVE", 8, "ascii");
  b.write("fmt ", 12, "ascii");
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36, "ascii");
  b.writeUInt32LE(dataSize, 40);
  return new Uint8Array(b);
}

/** Just enough of an MP4 to be recognised: an `ftyp` box and an empty `mdat`. */
function mp4(): Uint8Array {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write("ftypisom", 4, "ascii");
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write("isomiso2", 16, "ascii");
  const mdat = Buffer.alloc(16);
  mdat.writeUInt32BE(16, 0);
  mdat.write("mdat", 4, "ascii");
  return new Uint8Array(Buffer.concat([ftyp, mdat]));
}

function form(fields: Record<string, Uint8Array | string>, type = "application/octet-stream"): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === "string") f.append(k, v);
    else f.append(k, new Blob([new Uint8Array(v)], { type }), `${k}.bin`);
  }
  return f;
}

async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

/**
 * The server is told its ffmpeg and ffprobe are at a path where nothing is, so these tests show
 * what happens without them on any machine; test/api/media-ffmpeg.test.ts and
 * media-transcode.test.ts cover the paths with them.
 */
const NO_FFMPEG = { FFMPEG_BINARY: "/nonexistent/ffmpeg", FFPROBE_BINARY: "/nonexistent/ffprobe" };

describe("media attachments (without ffmpeg)", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  const upload = (fields: Record<string, Uint8Array | string>, version = 1, token = alice.token) =>
    s.request(`/api/v${version}/media`, { method: "POST", token, multipart: form(fields) });
  const fetchRaw = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, type: res.headers.get("content-type"), data: new Uint8Array(await res.arrayBuffer()) };
  };
  const rowCount = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom("media_attachments")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const mediaDir = () => join(s.ctx.config.dataDir, "media", "media_attachments");
  const filesOf = async (id: string) => (await filesUnder(join(mediaDir(), "files", id))).sort();
  const poll = async (id: string) => {
    let r = await s.request(`/api/v1/media/${id}`, { token: alice.token });
    for (let i = 0; i < 100 && r.status === 206; i++) {
      await new Promise((res) => setTimeout(res, 20));
      r = await s.request(`/api/v1/media/${id}`, { token: alice.token });
    }
    return r;
  };
  const job = (attempt = 1) => ({ id: "1", name: "media.process", attempt, maxAttempts: 3 });
  const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

  before(async () => {
    s = await startTestServer(NO_FFMPEG);
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
  });
  after(() => s.close());

  it("uploads a PNG through v1 and answers a MediaAttachment", async () => {
    const r = await upload({ file: await image(1200, 600).png().toBuffer(), description: "A blue field" });
    assert.equal(r.status, 200);
    const m = r.body;
    assert.deepEqual(Object.keys(m), [
      "id",
      "type",
      "url",
      "preview_url",
      "remote_url",
      "preview_remote_url",
      "meta",
      "description",
      "blurhash",
    ]);
    assert.equal(m.type, "image");
    assert.match(m.url, new RegExp(`/system/media_attachments/files/${m.id}/original\\.png$`));
    assert.match(m.preview_url, /\/small\.jpg$/);
    assert.equal(m.remote_url, null);
    assert.equal(m.preview_remote_url, null);
    assert.equal(m.description, "A blue field");
    assert.equal(typeof m.blurhash, "string");
    assert.deepEqual(m.meta.original, { width: 1200, height: 600, size: "1200x600", aspect: 2 });
    assert.deepEqual(m.meta.small, { width: 640, height: 320, size: "640x320", aspect: 2 });
    assert.equal(m.meta.focus, undefined);
    const original = await fetchRaw(m.url);
    assert.equal(original.status, 200);
    assert.equal(original.type, "image/png");
    const small = await fetchRaw(m.preview_url);
    assert.equal(small.type, "image/jpeg");
    assert.equal((await sharp(small.data).metadata()).width, 640);
  });

  it("turns a JPEG upright by its EXIF orientation and strips the metadata", async () => {
    const jpeg = await image(40, 20, "#aa0000").jpeg().withMetadata({ orientation: 6 }).toBuffer();
    assert.equal((await sharp(jpeg).metadata()).orientation, 6);
    const r = await upload({ file: jpeg });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.meta.original, { width: 20, height: 40, size: "20x40", aspect: 0.5 });
    const original = await fetchRaw(r.body.url);
    assert.equal(original.type, "image/jpeg");
    const meta = await sharp(original.data).metadata();
    assert.equal(meta.width, 20);
    assert.equal(meta.height, 40);
    assert.equal(meta.orientation, undefined);
    assert.equal(meta.exif, undefined);
  });

  it("keeps WebP and GIF (animated too) as images, whatever name and type the client declares", async () => {
    const webp = await upload({ file: await image(64, 48).webp().toBuffer() });
    assert.equal(webp.status, 200);
    assert.equal(webp.body.type, "image");
    assert.equal((await fetchRaw(webp.body.url)).type, "image/webp");

    const frame = (color: string) => image(32, 32, color).png().toBuffer();
    const animated = await sharp([await frame("#00ff00"), await frame("#ff0000")], { join: { animated: true } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer();
    const gif = await upload({ file: animated });
    assert.equal(gif.status, 200);
    assert.equal(gif.body.type, "image");
    const served = await fetchRaw(gif.body.url);
    assert.equal(served.type, "image/gif");
    const meta = await sharp(served.data, { animated: true }).metadata();
    assert.equal(meta.format, "gif");
    assert.equal(meta.pages, 2);
  });

  it("answers 200 for an image on v2, and 202 with url null for audio until it is processed", async () => {
    const img = await upload({ file: await image(30, 30).png().toBuffer() }, 2);
    assert.equal(img.status, 200);
    assert.ok(img.body.url);

    const audio = await upload({ file: wav(2) }, 2);
    assert.equal(audio.status, 202);
    assert.equal(audio.body.type, "audio");
    assert.equal(audio.body.url, null);
    let polled = await s.request(`/api/v1/media/${audio.body.id}`, { token: alice.token });
    for (let i = 0; i < 50 && polled.status === 206; i++) {
      await new Promise((r) => setTimeout(r, 20));
      polled = await s.request(`/api/v1/media/${audio.body.id}`, { token: alice.token });
    }
    assert.equal(polled.status, 200);
    assert.equal(polled.body.type, "audio");
    assert.match(polled.body.url, /\/original\.wav$/);
    assert.equal(polled.body.meta.duration, 2);
    assert.equal(polled.body.meta.length, "0:00:02.00");
    assert.equal((await fetchRaw(polled.body.url)).type, "audio/wav");
  });

  it("answers 206 while processing and 422 when processing failed", async () => {
    const r = await upload({ file: await image(10, 10).png().toBuffer() });
    await s.ctx.repos.media.update(r.body.id, { processing: "in_progress" });
    const during = await s.request(`/api/v1/media/${r.body.id}`, { token: alice.token });
    assert.equal(during.status, 206);
    assert.equal(during.body.url, null);
    await s.ctx.repos.media.update(r.body.id, { processing: "failed" });
    const failed = await s.request(`/api/v1/media/${r.body.id}`, { token: alice.token });
    assert.equal(failed.status, 422);
    await s.ctx.repos.media.update(r.body.id, { processing: "complete" });
    assert.equal((await s.request(`/api/v1/media/${r.body.id}`, { token: alice.token })).status, 200);
  });

  it("takes audio and video on v1 as uploaded (the container's type; a WAV header's duration)", async () => {
    const audio = await upload({ file: wav(1) });
    assert.equal(audio.status, 200);
    assert.equal(audio.body.type, "audio");
    assert.equal(audio.body.preview_url, null);
    assert.equal(audio.body.meta.duration, 1);

    const video = await upload({ file: mp4() });
    assert.equal(video.status, 200);
    assert.equal(video.body.type, "video");
    assert.equal(video.body.preview_url, null);
    assert.equal((await fetchRaw(video.body.url)).type, "video/mp4");
  });

  it("accepts a base64 data URI as the file", async () => {
    const png = await image(16, 8).png().toBuffer();
    const r = await s.request("/api/v1/media", {
      method: "POST",
      token: alice.token,
      json: { file: `data:image/png;base64,${png.toString("base64")}` },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.meta.original.size, "16x8");
  });

  it("updates the description and focus, and takes a custom thumbnail for audio", async () => {
    const up = await upload({ file: await image(100, 50).png().toBuffer(), focus: "0.5,-0.25" });
    assert.deepEqual(up.body.meta.focus, { x: 0.5, y: -0.25 });
    const id = up.body.id;
    const put = (json: Record<string, unknown>) =>
      s.request(`/api/v1/media/${id}`, { method: "PUT", token: alice.token, json });
    const r = await put({ description: "Alt text", focus: "-1,1" });
    assert.equal(r.status, 200);
    assert.equal(r.body.description, "Alt text");
    assert.deepEqual(r.body.meta.focus, { x: -1, y: 1 });
    assert.deepEqual(r.body.meta.original.size, "100x50");
    assert.equal((await put({ focus: "2,0" })).status, 422);
    assert.equal((await put({ focus: "x" })).status, 422);
    assert.equal((await put({ description: "a".repeat(1501) })).status, 422);
    assert.equal((await put({ description: "a".repeat(1500) })).status, 200);
    const got = await s.request(`/api/v1/media/${id}`, { token: alice.token });
    assert.equal(got.body.description.length, 1500);

    // A thumbnail keeps its format, is scaled within Mastodon's 230,400 pixels, and is `small`.
    const audio = await upload({ file: wav(1), thumbnail: await image(800, 800, "#ff8800").png().toBuffer() });
    assert.equal(audio.status, 200);
    assert.match(audio.body.preview_url, /\/thumbnail\.png$/);
    assert.equal(typeof audio.body.blurhash, "string");
    const thumb = await fetchRaw(audio.body.preview_url);
    assert.equal(thumb.type, "image/png");
    assert.equal((await sharp(thumb.data).metadata()).width, 480);
    assert.deepEqual(audio.body.meta.small, { width: 480, height: 480, size: "480x480", aspect: 1 });
    assert.equal(audio.body.meta.duration, 1);

    const replaced = await s.request(`/api/v1/media/${audio.body.id}`, {
      method: "PUT",
      token: alice.token,
      multipart: form({ thumbnail: await image(50, 50).png().toBuffer() }),
    });
    assert.equal(replaced.status, 200);
    assert.notEqual(replaced.body.preview_url, audio.body.preview_url);
    assert.deepEqual(replaced.body.meta.small, { width: 50, height: 50, size: "50x50", aspect: 1 });
    assert.equal(replaced.body.meta.duration, 1);
    assert.equal((await fetchRaw(audio.body.preview_url)).status, 404);
    assert.equal((await fetchRaw(replaced.body.preview_url)).status, 200);
    const webp = await s.request(`/api/v1/media/${audio.body.id}`, {
      method: "PUT",
      token: alice.token,
      multipart: form({ thumbnail: await image(60, 30).webp().toBuffer() }),
    });
    assert.match(webp.body.preview_url, /\/thumbnail-[a-z0-9]+\.webp$/);
    assert.equal((await fetchRaw(webp.body.preview_url)).type, "image/webp");
    assert.deepEqual(webp.body.meta.small, { width: 60, height: 30, size: "60x30", aspect: 2 });
  });

  it("checks the token and its scopes", async () => {
    const png = await image(8, 8).png().toBuffer();
    assert.equal((await s.request("/api/v1/media", { method: "POST", multipart: form({ file: png }) })).status, 401);
    const readOnly = await s.createUser("reader", { scopes: "read" });
    assert.equal((await upload({ file: png }, 1, readOnly.token)).status, 403);
    assert.equal((await upload({ file: png }, 2, readOnly.token)).status, 403);
    const app = await s.appToken("write:media");
    assert.equal((await upload({ file: png }, 1, app)).status, 422);
    const writer = await s.createUser("writer", { scopes: "write:media" });
    const r = await upload({ file: png }, 2, writer.token);
    assert.equal(r.status, 200);
    assert.equal((await s.request(`/api/v1/media/${r.body.id}`, { token: readOnly.token })).status, 403);
  });

  it("shows and changes an attachment only for its owner", async () => {
    const r = await upload({ file: await image(8, 8).png().toBuffer() });
    const path = `/api/v1/media/${r.body.id}`;
    assert.equal((await s.request(path, { token: bob.token })).status, 404);
    assert.equal((await s.request(path, { method: "PUT", token: bob.token, json: { description: "x" } })).status, 404);
    assert.equal((await s.request(path, { method: "DELETE", token: bob.token })).status, 404);
    assert.equal((await s.request("/api/v1/media/99999999999999999999", { token: alice.token })).status, 404);
    assert.equal((await s.request(path, { token: alice.token })).body.description, null);
  });

  it("refuses corrupt, oversized, unsupported and missing files with 422, storing nothing", async () => {
    const rowsBefore = await rowCount();
    const filesBefore = (await filesUnder(mediaDir())).length;
    const png = await image(64, 64).png().toBuffer();
    const corrupt = new Uint8Array(png.subarray(0, 60));
    const oversized = new Uint8Array(16 * 1024 * 1024 + 10);
    oversized.set(png.subarray(0, 8));
    const cases: [string, Record<string, Uint8Array | string>][] = [
      ["corrupt", { file: corrupt }],
      ["oversized", { file: oversized }],
      ["unsupported", { file: new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>") }],
      ["a PDF named .png", { file: new TextEncoder().encode("%PDF-1.4\n...") }],
      ["missing", { description: "no file" }],
      ["bad thumbnail", { file: wav(1), thumbnail: new TextEncoder().encode("not an image") }],
      ["too long a description", { file: png, description: "d".repeat(1501) }],
      ["bad focus", { file: png, focus: "3,3" }],
    ];
    for (const [name, fields] of cases) {
      for (const version of [1, 2]) {
        const r = await upload(fields, version);
        assert.equal(r.status, 422, `${name} on v${version}`);
        assert.equal(typeof r.body.error, "string");
      }
    }
    assert.equal(await rowCount(), rowsBefore);
    assert.equal((await filesUnder(mediaDir())).length, filesBefore);
  });

  it("deletes unattached uploads with their files, and refuses attached ones", async () => {
    const r = await upload({ file: await image(20, 20).png().toBuffer() });
    const path = `/api/v1/media/${r.body.id}`;
    const del = await s.request(path, { method: "DELETE", token: alice.token });
    assert.equal(del.status, 200);
    assert.deepEqual(del.body, {});
    assert.equal((await s.request(path, { token: alice.token })).status, 404);
    assert.equal((await fetchRaw(r.body.url)).status, 404);
    assert.equal((await fetchRaw(r.body.preview_url)).status, 404);

    const used = await upload({ file: await image(20, 20).png().toBuffer() });
    const statusId = s.ctx.ids.next();
    assert.equal(await s.ctx.repos.media.attachToStatus([used.body.id], statusId, bob.account.id), 0);
    assert.equal(await s.ctx.repos.media.attachToStatus([used.body.id], statusId, alice.account.id), 1);
    assert.equal(await s.ctx.repos.media.attachToStatus([used.body.id], s.ctx.ids.next(), alice.account.id), 0);
    assert.equal((await s.ctx.repos.media.listByStatuses([statusId]))[0]?.id, used.body.id);
    const usedPath = `/api/v1/media/${used.body.id}`;
    assert.equal((await s.request(usedPath, { token: alice.token })).status, 404);
    assert.equal((await s.request(usedPath, { method: "DELETE", token: alice.token })).status, 422);
    assert.equal((await fetchRaw(used.body.url)).status, 200);
  });

  it("checks the media a status may carry (for the statuses service)", async () => {
    const png = async () => (await upload({ file: await image(8, 8).png().toBuffer() })).body.id as string;
    const [a, b, c, d, e] = [await png(), await png(), await png(), await png(), await png()];
    const ctx = s.ctx;
    const me = alice.account.id;
    assert.deepEqual(
      (await prepareStatusMedia(ctx, me, [c, a, "123", "x"])).map((m) => m.id),
      [c, a],
    );
    assert.deepEqual(await prepareStatusMedia(ctx, bob.account.id, [a, b]), []);
    await assert.rejects(prepareStatusMedia(ctx, me, [a, b, c, d, e]), /more than 4/);
    const audio = (await upload({ file: wav(1) })).body.id as string;
    await assert.rejects(prepareStatusMedia(ctx, me, [a, audio]), /video/);
    assert.equal((await prepareStatusMedia(ctx, me, [audio])).length, 1);
    await ctx.repos.media.update(b, { processing: "in_progress" });
    await assert.rejects(prepareStatusMedia(ctx, me, [b]), /finished processing/);
    const statusId = ctx.ids.next();
    assert.equal(await ctx.repos.media.attachToStatus([a, c], statusId, me), 2);
    assert.deepEqual(await prepareStatusMedia(ctx, me, [a]), []);
    assert.deepEqual(
      (await prepareStatusMedia(ctx, me, [c, a], statusId)).map((m) => m.id),
      [c, a],
    );
    assert.equal(await ctx.repos.media.detachFromStatus(statusId, [c]), 1);
    assert.equal((await ctx.repos.media.getById(a))?.statusId, null);
    assert.equal((await ctx.repos.media.getById(c))?.statusId, statusId);
    const url = (await s.request(`/api/v1/media/${a}`, { token: alice.token })).body.url;
    assert.equal(await removeStatusMedia(ctx, [statusId]), 1);
    assert.equal(await ctx.repos.media.getById(c), undefined);
    assert.ok(await ctx.repos.media.getById(a));
    assert.equal((await fetchRaw(url)).status, 200);
  });

  it("takes bodies past the general 20 MiB limit on the upload paths only, up to 100 MiB", async () => {
    const big = new Uint8Array(25 * 1024 * 1024);
    big.set(await image(4, 4).png().toBuffer());
    const r = await upload({ file: big });
    assert.equal(r.status, 422);
    assert.match(r.body.error, /less than 16 MB/);
    const elsewhere = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      multipart: form({ note: "x", avatar: big }),
    });
    assert.equal(elsewhere.status, 413);
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${s.url}/api/v2/media`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${alice.token}`,
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(101 * 1024 * 1024),
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", reject);
      req.write("--x\r\n");
    });
    assert.equal(status, 413);
  });

  it("purges unattached uploads older than a day, keeping attached and recent ones", async () => {
    const recent = await upload({ file: await image(12, 12).png().toBuffer() });
    assert.equal(await purgeUnattachedMedia(s.ctx), 0);
    assert.ok(await s.ctx.repos.media.getById(recent.body.id));

    const kept = await upload({ file: await image(12, 12).png().toBuffer() });
    await s.ctx.repos.media.attachToStatus([kept.body.id], s.ctx.ids.next(), alice.account.id);
    const removed = await purgeUnattachedMedia(s.ctx, new Date(Date.now() + 60_000));
    assert.ok(removed >= 1);
    assert.equal(await s.ctx.repos.media.getById(recent.body.id), undefined);
    assert.equal((await fetchRaw(recent.body.url)).status, 404);
    assert.ok(await s.ctx.repos.media.getById(kept.body.id));
    assert.equal((await fetchRaw(kept.body.url)).status, 200);
    const left = await s.ctx.db.selectFrom("media_attachments").select("status_id").execute();
    assert.ok(left.every((row) => row.status_id !== null));
  });

  it("without ffmpeg stores video as uploaded on v2: 202, then 200 with no preview but a custom thumbnail", async () => {
    const r = await upload({ file: mp4() }, 2);
    assert.equal(r.status, 202);
    assert.equal(r.body.type, "video");
    assert.equal(r.body.url, null);
    const done = await poll(r.body.id);
    assert.equal(done.status, 200);
    assert.match(done.body.url, /\/original\.mp4$/);
    assert.equal(done.body.preview_url, null);
    assert.equal(done.body.blurhash, null);
    assert.deepEqual(done.body.meta, {});
    assert.equal((await fetchRaw(done.body.url)).type, "video/mp4");

    const thumb = await upload({ file: mp4(), thumbnail: await image(64, 32, "#00aa00").png().toBuffer() }, 2);
    assert.equal(thumb.status, 202);
    const withThumb = await poll(thumb.body.id);
    assert.equal(withThumb.status, 200);
    assert.match(withThumb.body.preview_url, /\/thumbnail\.png$/);
    assert.equal(typeof withThumb.body.blurhash, "string");
    assert.deepEqual(withThumb.body.meta, { small: { width: 64, height: 32, size: "64x32", aspect: 2 } });
    assert.deepEqual(await filesOf(thumb.body.id), ["original.mp4", "thumbnail.png"]);
    const replaced = await s.request(`/api/v1/media/${thumb.body.id}`, {
      method: "PUT",
      token: alice.token,
      multipart: form({ thumbnail: await image(40, 40, "#aa0000").png().toBuffer() }),
    });
    assert.equal(replaced.status, 200);
    assert.notEqual(replaced.body.preview_url, withThumb.body.preview_url);
    assert.equal((await filesOf(thumb.body.id)).length, 2);
  });

  it("runs media.process again after a crash: resumed when never enqueued, idempotent when run twice", async () => {
    const r = await upload({ file: wav(2) }, 2);
    assert.equal(r.status, 202);
    const done = await poll(r.body.id);
    assert.equal(done.status, 200);
    const id = r.body.id as string;

    // The process died after storing the upload and before enqueueing its job.
    await s.ctx.repos.media.update(id, { processing: "queued", updated_at: new Date().toISOString() });
    assert.equal(await resumeStalledMediaProcessing(s.ctx), 0, "a recent upload is not stalled yet");
    await s.ctx.repos.media.update(id, { updated_at: hourAgo() });
    assert.equal(await resumeStalledMediaProcessing(s.ctx), 1);
    const resumed = await poll(id);
    assert.equal(resumed.status, 200);
    assert.deepEqual(resumed.body, done.body);

    // The worker died mid-way: the job runs again, and a run after it changes nothing.
    await s.ctx.repos.media.update(id, { processing: "in_progress", updated_at: hourAgo() });
    await processMediaJob(s.ctx, { id }, job());
    const once = await s.ctx.repos.media.getById(id);
    await processMediaJob(s.ctx, { id }, job(2));
    assert.deepEqual(await s.ctx.repos.media.getById(id), once);
    assert.equal(once?.processing, "complete");
    assert.deepEqual((await s.request(`/api/v1/media/${id}`, { token: alice.token })).body, done.body);
    assert.deepEqual(await filesOf(id), ["original.wav"]);
    // Unknown, deleted or malformed ids are done with at once.
    await processMediaJob(s.ctx, { id: "12345" }, job());
    await processMediaJob(s.ctx, { id: "x" } as { id: string }, job());
    const stalled = await s.ctx.repos.media.listStalledProcessing("0", new Date().toISOString(), 1000);
    assert.ok(!stalled.some((m) => m.id === id), "a complete upload is never resumed");
  });

  it("retries media.process on a passing failure and ends the upload failed, files deleted, on its last try", async () => {
    const r = await upload({ file: wav(1), thumbnail: await image(30, 30).png().toBuffer() }, 2);
    const id = r.body.id as string;
    assert.equal((await poll(id)).status, 200);
    await s.ctx.repos.media.update(id, { processing: "queued" });
    const blobs = s.ctx.blobs;
    const get = blobs.get;
    blobs.get = async () => {
      throw new Error("disk unavailable");
    };
    try {
      await assert.rejects(processMediaJob(s.ctx, { id }, job(1)), /disk unavailable/);
      assert.equal((await s.ctx.repos.media.getById(id))?.processing, "in_progress");
      assert.deepEqual(await filesOf(id), ["original.wav", "thumbnail.png"]);
      await processMediaJob(s.ctx, { id }, job(3));
    } finally {
      blobs.get = get;
    }
    const failed = await s.request(`/api/v1/media/${id}`, { token: alice.token });
    assert.equal(failed.status, 422);
    assert.equal(failed.body.error, "Error processing thumbnail for uploaded media");
    assert.deepEqual(await filesOf(id), []);
    const row = await s.ctx.repos.media.getById(id);
    assert.equal(row?.processing, "failed");
    assert.equal(row?.fileKey, null);
    assert.equal(row?.thumbnailKey, null);

    // An upload whose stored file is gone fails at once: no retry can bring it back.
    const gone = await upload({ file: wav(1) }, 2);
    assert.equal((await poll(gone.body.id)).status, 200);
    const row2 = await s.ctx.repos.media.getById(gone.body.id);
    await s.ctx.repos.media.update(gone.body.id, { processing: "queued" });
    await s.ctx.blobs.delete(row2?.fileKey ?? "");
    await processMediaJob(s.ctx, { id: gone.body.id }, job(1));
    assert.equal((await s.request(`/api/v1/media/${gone.body.id}`, { token: alice.token })).status, 422);
  });

  it("serves stored files with their type, a long immutable cache, no sniffing and byte ranges; 404 otherwise", async () => {
    const r = await upload({ file: await image(20, 10).png().toBuffer() });
    for (const url of [r.body.url, r.body.preview_url]) {
      const res = await fetch(url);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "public, max-age=31536000, immutable");
      assert.equal(res.headers.get("x-content-type-options"), "nosniff");
      assert.match(res.headers.get("content-security-policy") ?? "", /sandbox/);
      await res.arrayBuffer();
    }
    assert.equal((await fetch(r.body.url)).headers.get("content-type"), "image/png");
    assert.equal((await fetch(r.body.preview_url)).headers.get("content-type"), "image/jpeg");
    const wavUp = await upload({ file: wav(1) });
    const whole = await fetchRaw(wavUp.body.url);
    assert.equal(whole.type, "audio/wav");
    // Byte ranges, which browsers need to seek (and Safari to play at all).
    const ranged = async (range: string) => {
      const res = await fetch(wavUp.body.url, { headers: { range } });
      return { status: res.status, headers: res.headers, data: new Uint8Array(await res.arrayBuffer()) };
    };
    const size = whole.data.byteLength;
    const first = await ranged("bytes=0-9");
    assert.equal(first.status, 206);
    assert.equal(first.headers.get("content-range"), `bytes 0-9/${size}`);
    assert.equal(first.headers.get("content-type"), "audio/wav");
    assert.deepEqual(first.data, whole.data.subarray(0, 10));
    const tail = await ranged("bytes=-4");
    assert.equal(tail.status, 206);
    assert.deepEqual(tail.data, whole.data.subarray(size - 4));
    const open = await ranged(`bytes=${size - 2}-`);
    assert.equal(open.headers.get("content-range"), `bytes ${size - 2}-${size - 1}/${size}`);
    assert.equal(open.data.byteLength, 2);
    const past = await ranged(`bytes=${size}-`);
    assert.equal(past.status, 416);
    assert.equal(past.headers.get("content-range"), `bytes */${size}`);
    for (const ignored of ["bytes=5-1", "bytes=0-1,4-5", "items=0-1", "nonsense"]) {
      const r2 = await ranged(ignored);
      assert.equal(r2.status, 200, ignored);
      assert.equal(r2.data.byteLength, size);
    }
    assert.equal((await fetch(wavUp.body.url)).headers.get("accept-ranges"), "bytes");
    // Larger files are streamed in chunks, whole or in part.
    const long = wav(20);
    const longUp = await upload({ file: long });
    const longWhole = await fetchRaw(longUp.body.url);
    assert.deepEqual(longWhole.data, long);
    const middle = await fetch(longUp.body.url, { headers: { range: "bytes=200000-300000" } });
    assert.equal(middle.status, 206);
    assert.equal(middle.headers.get("content-length"), "100001");
    assert.deepEqual(new Uint8Array(await middle.arrayBuffer()), long.subarray(200000, 300001));
    const head = await fetch(wavUp.body.url, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-type"), "audio/wav");
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    for (const path of [
      `/system/media_attachments/files/${r.body.id}/missing.png`,
      "/system/..%2F..%2F..%2Fetc%2Fpasswd",
      "/system/%2e%2e/secret.key",
      "/system/%E0%A4%A",
      `/system/media_attachments/files/${r.body.id}`,
    ]) {
      assert.equal((await fetchRaw(`${s.url}${path}`)).status, 404, path);
    }
  });

  it("takes data URIs for the file and the thumbnail, in JSON and in forms; refuses a bad one", async () => {
    const png = await image(16, 8).png().toBuffer();
    const thumb = await image(32, 32, "#ff00ff").jpeg().toBuffer();
    const audio = await s.request("/api/v2/media", {
      method: "POST",
      token: alice.token,
      json: {
        file: `data:audio/wav;base64,${Buffer.from(wav(1)).toString("base64")}`,
        thumbnail: `data:image/jpeg;base64,${thumb.toString("base64")}`,
      },
    });
    assert.equal(audio.status, 202);
    assert.match(audio.body.preview_url, /\/thumbnail\.jpg$/);
    const form = await s.request("/api/v2/media", {
      method: "POST",
      token: alice.token,
      form: { file: `data:image/png;base64,${png.toString("base64")}`, description: "from a form" },
    });
    assert.equal(form.status, 200);
    assert.equal(form.body.meta.original.size, "16x8");
    assert.equal(form.body.description, "from a form");
    const rows = await rowCount();
    for (const file of ["data:image/png;base64,!!!!", "not a data uri", `data:text/plain,${"hello"}`]) {
      const r = await s.request("/api/v1/media", { method: "POST", token: alice.token, json: { file } });
      assert.equal(r.status, 422, file);
    }
    assert.equal(await rowCount(), rows);
  });

  it("enforces the size limits the instance configuration announces, per kind of file", async () => {
    const instance = await s.request("/api/v2/instance");
    const limits = instance.body.configuration.media_attachments;
    const png = await image(4, 4).png().toBuffer();
    const tooBig = new Uint8Array(limits.image_size_limit + 1);
    tooBig.set(png);
    const r = await upload({ file: tooBig });
    assert.equal(r.status, 422);
    assert.match(r.body.error, new RegExp(`less than ${limits.image_size_limit / 1024 / 1024} MB`));
    // Audio past the image limit is within the video and audio one.
    assert.ok(limits.video_size_limit > limits.image_size_limit);
    const seconds = Math.ceil((limits.image_size_limit + 1) / 16000);
    const big = await upload({ file: wav(seconds) });
    assert.equal(big.status, 200);
    assert.equal(big.body.type, "audio");
    await s.request(`/api/v1/media/${big.body.id}`, { method: "DELETE", token: alice.token });
  });

  it("goes by the bytes, not by the name or type the client declares", async () => {
    const f = new FormData();
    f.append("file", new Blob([await image(10, 10).png().toBuffer()], { type: "video/mp4" }), "clip.mp4");
    const r = await s.request("/api/v2/media", { method: "POST", token: alice.token, multipart: f });
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "image");
    assert.match(r.body.url, /\/original\.png$/);
    assert.equal((await fetchRaw(r.body.url)).type, "image/png");
    const g = new FormData();
    g.append("file", new Blob([new Uint8Array(wav(1))], { type: "image/png" }), "photo.png");
    const a = await s.request("/api/v1/media", { method: "POST", token: alice.token, multipart: g });
    assert.equal(a.status, 200);
    assert.equal(a.body.type, "audio");
    assert.equal((await fetchRaw(a.body.url)).type, "audio/wav");
  });

  it("scales an image beyond the instance's pixel limit down to it", async () => {
    const instance = await s.request("/api/v2/instance");
    const limit = instance.body.configuration.media_attachments.image_matrix_limit as number;
    const width = 8000;
    const height = Math.ceil(limit / width) + 10;
    const r = await upload({ file: await image(width, height).png({ compressionLevel: 1 }).toBuffer() });
    assert.equal(r.status, 200);
    const { width: w, height: h } = r.body.meta.original;
    assert.ok(w * h <= limit, `${w}x${h} is within ${limit} pixels`);
    assert.ok(w < width && w > width * 0.99);
    const stored = await sharp((await fetchRaw(r.body.url)).data).metadata();
    assert.equal(stored.width, w);
    assert.equal(stored.height, h);
  });
});
