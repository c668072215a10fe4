import assert from "node:assert/strict";
import { chmod, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Video and audio with ffprobe/ffmpeg on the PATH. The machine running the suite may have neither,
 * so small stand-ins answer as the real tools would: ffprobe prints canned JSON (it fails for a
 * file containing BROKEN), ffmpeg writes a PNG frame or a converted MP4.
 */

const MP4 = (() => {
  const b = Buffer.alloc(40);
  b.writeUInt32BE(24, 0);
  b.write("ftypisomiso2avc1mp41", 4, "ascii");
  b.writeUInt32BE(16, 24);
  b.write("mdat", 28, "ascii");
  return b;
})();

const VIDEO_JSON = {
  format: { duration: "2.500000", bit_rate: "400000" },
  streams: [
    { codec_type: "video", codec_name: "h264", width: 320, height: 240, avg_frame_rate: "30/1", r_frame_rate: "30/1" },
    { codec_type: "audio", codec_name: "aac", channels: 2, channel_layout: "stereo", sample_rate: "44100" },
  ],
};
const HUGE_JSON = {
  format: { duration: "1.0" },
  streams: [{ codec_type: "video", codec_name: "h264", width: 7680, height: 4320, avg_frame_rate: "30/1" }],
};
const FAST_JSON = {
  format: { duration: "1.0" },
  streams: [{ codec_type: "video", codec_name: "h264", width: 640, height: 360, avg_frame_rate: "240/1" }],
};
const AUDIO_JSON = {
  format: { duration: "3.000000", bit_rate: "128000" },
  streams: [{ codec_type: "audio", codec_name: "mp3", channels: 1, channel_layout: "mono", sample_rate: "22050" }],
};

function wav(): Uint8Array {
  const b = Buffer.alloc(44 + 16000);
  b.write("RIFF", 0, "ascii");
  b.writeUInt32LE(36 + 16000, 4);
  b.write("WAVEfmt ", 8, "ascii");
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(8000, 24);
  b.writeUInt32LE(16000, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write("data", 36, "ascii");
  b.writeUInt32LE(16000, 40);
  return new Uint8Array(b);
}

describe("media attachments with ffprobe and ffmpeg", () => {
  let s: TestServer;
  let alice: TestUser;
  let tools: string;
  const oldPath = process.env.PATH;
  const upload = (file: Uint8Array, version = 1, thumbnail?: Uint8Array) => {
    const f = new FormData();
    f.append("file", new Blob([new Uint8Array(file)]), "upload.bin");
    if (thumbnail) f.append("thumbnail", new Blob([new Uint8Array(thumbnail)]), "thumb.bin");
    return s.request(`/api/v${version}/media`, { method: "POST", token: alice.token, multipart: f });
  };
  const marked = (marker: string) => new Uint8Array(Buffer.concat([MP4, Buffer.from(marker)]));
  const thumbnailPng = () =>
    sharp({ create: { width: 200, height: 100, channels: 3, background: "#ffcc00" } })
      .png()
      .toBuffer();
  /** The files stored for one attachment. */
  const filesOf = (id: string) =>
    readdir(join(s.ctx.config.dataDir, "media", "media_attachments", "files", id)).catch(() => [] as string[]);
  const poll = async (id: string) => {
    let r = await s.request(`/api/v1/media/${id}`, { token: alice.token });
    for (let i = 0; i < 100 && r.status === 206; i++) {
      await new Promise((res) => setTimeout(res, 20));
      r = await s.request(`/api/v1/media/${id}`, { token: alice.token });
    }
    return r;
  };

  before(async () => {
    tools = await mkdtemp(join(tmpdir(), "gannet-fake-ffmpeg-"));
    await writeFile(join(tools, "video.json"), JSON.stringify(VIDEO_JSON));
    await writeFile(join(tools, "audio.json"), JSON.stringify(AUDIO_JSON));
    await writeFile(join(tools, "huge.json"), JSON.stringify(HUGE_JSON));
    await writeFile(join(tools, "fast.json"), JSON.stringify(FAST_JSON));
    await writeFile(
      join(tools, "frame.png"),
      await sharp({ create: { width: 320, height: 240, channels: 3, background: "#204060" } })
        .png()
        .toBuffer(),
    );
    await writeFile(join(tools, "clip.mp4"), MP4);
    const last = 'last=""; for a in "$@"; do last="$a"; done';
    await writeFile(
      join(tools, "ffprobe"),
      `#!/bin/sh\n${last}\nif grep -q BROKEN "$last"; then echo "invalid data" >&2; exit 1; fi\nif grep -q HUGE "$last"; then cat "${tools}/huge.json"; exit 0; fi\nif grep -q FAST "$last"; then cat "${tools}/fast.json"; exit 0; fi\ncase "$last" in\n  *.wav|*.mp3) cat "${tools}/audio.json" ;;\n  *) cat "${tools}/video.json" ;;\nesac\n`,
    );
    // Frame extraction: fails for a file containing NOFRAME; for one containing GATE, waits
    // until the test creates the file `open`, so a test sees the upload while it is processed.
    const input = 'in=""; prev=""; for a in "$@"; do [ "$prev" = "-i" ] && in="$a"; prev="$a"; done';
    await writeFile(
      join(tools, "ffmpeg"),
      `#!/bin/sh\n${last}\n${input}\ncase "$*" in\n  *frames:v*)\n    if grep -q NOFRAME "$in"; then echo "decode error" >&2; exit 1; fi\n    if grep -q GATE "$in"; then while [ ! -f "${tools}/open" ]; do sleep 0.02; done; fi\n    cat "${tools}/frame.png" ;;\n  *libx264*) cp "${tools}/clip.mp4" "$last" ;;\n  *) exit 1 ;;\nesac\n`,
    );
    await chmod(join(tools, "ffprobe"), 0o755);
    await chmod(join(tools, "ffmpeg"), 0o755);
    process.env.PATH = `${tools}${delimiter}${oldPath ?? ""}`;
    s = await startTestServer();
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s.close();
    process.env.PATH = oldPath;
    await rm(tools, { recursive: true, force: true });
  });
  const openGate = () => writeFile(join(tools, "open"), "");

  it("reads a video's metadata and makes a preview from its first frame", async () => {
    const r = await upload(MP4);
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "video");
    assert.match(r.body.url, /\/original\.mp4$/);
    assert.match(r.body.preview_url, /\/small\.jpg$/);
    assert.equal(typeof r.body.blurhash, "string");
    const m = r.body.meta;
    assert.equal(m.length, "0:00:02.50");
    assert.equal(m.duration, 2.5);
    assert.equal(m.fps, 30);
    assert.equal(m.size, "320x240");
    assert.equal(m.audio_encode, "aac");
    assert.equal(m.audio_channels, "stereo");
    assert.deepEqual(m.original, { width: 320, height: 240, frame_rate: "30/1", duration: 2.5, bitrate: 400000 });
    assert.deepEqual(m.small, { width: 320, height: 240, size: "320x240", aspect: 320 / 240 });
    const preview = await fetch(r.body.preview_url);
    assert.equal(preview.headers.get("content-type"), "image/jpeg");
  });

  it("processes video after answering 202 on v2", async () => {
    const r = await upload(MP4, 2);
    assert.equal(r.status, 202);
    assert.equal(r.body.url, null);
    assert.equal(r.body.preview_url, null);
    const done = await poll(r.body.id);
    assert.equal(done.status, 200);
    assert.match(done.body.url, /\/original\.mp4$/);
    assert.match(done.body.preview_url, /\/small\.jpg$/);
    assert.equal(done.body.meta.duration, 2.5);
  });

  it("reads audio metadata through ffprobe", async () => {
    const r = await upload(wav());
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "audio");
    assert.equal(r.body.preview_url, null);
    assert.equal(r.body.meta.duration, 3);
    assert.equal(r.body.meta.audio_channels, "mono");
    assert.deepEqual(r.body.meta.original, { duration: 3, bitrate: 128000 });
  });

  it("turns an animated GIF into gifv", async () => {
    const frame = (color: string) =>
      sharp({ create: { width: 24, height: 24, channels: 3, background: color } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame("#ff0000"), await frame("#0000ff")], { join: { animated: true } })
      .gif({ loop: 0, delay: [100, 100] })
      .toBuffer();
    const r = await upload(new Uint8Array(gif));
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "gifv");
    assert.match(r.body.url, /\/original\.mp4$/);
    assert.equal((await fetch(r.body.url)).headers.get("content-type"), "video/mp4");
    assert.match(r.body.preview_url, /\/small\.(png|jpg)$/);
  });

  it("refuses a video ffprobe cannot read with 422 on v1 and v2, storing nothing", async () => {
    const broken = new Uint8Array(Buffer.concat([MP4, Buffer.from("BROKEN")]));
    const dir = join(s.ctx.config.dataDir, "media", "media_attachments", "files");
    const count = async () => (await readdir(dir).catch(() => [])).length;
    const before = await count();
    assert.equal((await upload(broken)).status, 422);
    assert.equal((await upload(broken, 2)).status, 422);
    assert.equal(await count(), before);
  });

  it("refuses videos beyond the pixel and frame-rate limits", async () => {
    const huge = await upload(new Uint8Array(Buffer.concat([MP4, Buffer.from("HUGE")])));
    assert.equal(huge.status, 422);
    assert.equal((await upload(new Uint8Array(Buffer.concat([MP4, Buffer.from("HUGE")])), 2)).status, 422);
    assert.match(huge.body.error, /7680x4320 videos are not supported/);
    const fast = await upload(new Uint8Array(Buffer.concat([MP4, Buffer.from("FAST")])));
    assert.equal(fast.status, 422);
    assert.match(fast.body.error, /240fps videos are not supported/);
  });

  it("answers 206 while the job runs, then 200 with the preview; a status cannot use it meanwhile", async () => {
    await rm(join(tools, "open"), { force: true });
    try {
      const r = await upload(marked("GATE"), 2);
      assert.equal(r.status, 202);
      assert.equal(r.body.type, "video");
      assert.equal(r.body.url, null);
      const during = await s.request(`/api/v1/media/${r.body.id}`, { token: alice.token });
      assert.equal(during.status, 206);
      assert.equal(during.body.url, null);
      const put = await s.request(`/api/v1/media/${r.body.id}`, {
        method: "PUT",
        token: alice.token,
        json: { description: "while processing" },
      });
      assert.equal(put.status, 206);
      assert.equal(put.body.description, "while processing");
      const post = await s.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        json: { status: "too soon", media_ids: [r.body.id] },
      });
      assert.equal(post.status, 422);
      assert.match(post.body.error, /not finished processing/);
      await openGate();
      const done = await poll(r.body.id);
      assert.equal(done.status, 200);
      assert.match(done.body.url, /\/original\.mp4$/);
      assert.match(done.body.preview_url, /\/small\.jpg$/);
      assert.equal(done.body.description, "while processing");
      assert.equal(done.body.meta.size, "320x240");
      const posted = await s.request("/api/v1/statuses", {
        method: "POST",
        token: alice.token,
        json: { status: "now", media_ids: [r.body.id] },
      });
      assert.equal(posted.status, 200);
      assert.equal(posted.body.media_attachments[0].id, r.body.id);
    } finally {
      await openGate();
    }
  });

  it("ends a video ffmpeg cannot decode as failed in the background (422), with no file left", async () => {
    // v1 refuses it at once.
    assert.equal((await upload(marked("NOFRAME"))).status, 422);
    const r = await upload(marked("NOFRAME"), 2, await thumbnailPng());
    assert.equal(r.status, 202);
    assert.match(r.body.preview_url, /\/thumbnail\.jpg$/);
    const failed = await poll(r.body.id);
    assert.equal(failed.status, 422);
    assert.equal(failed.body.error, "Error processing thumbnail for uploaded media");
    assert.deepEqual(await filesOf(r.body.id), []);
    assert.equal((await fetch(r.body.preview_url)).status, 404);
    const path = `/api/v1/media/${r.body.id}`;
    assert.equal(
      (await s.request(path, { method: "PUT", token: alice.token, json: { description: "x" } })).status,
      422,
    );
    const post = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "broken", media_ids: [r.body.id] },
    });
    assert.equal(post.status, 422);
    // Deleting it still works (Mastodon's destroy skips the processing check).
    assert.equal((await s.request(path, { method: "DELETE", token: alice.token })).status, 200);
    assert.equal(await s.ctx.repos.media.getById(r.body.id), undefined);
  });

  it("keeps a custom thumbnail as a video's preview; the blurhash comes from its first frame", async () => {
    const r = await upload(MP4, 1, await thumbnailPng());
    assert.equal(r.status, 200);
    assert.match(r.body.preview_url, /\/thumbnail\.jpg$/);
    assert.deepEqual((await filesOf(r.body.id)).sort(), ["original.mp4", "small.jpg", "thumbnail.jpg"]);
    const frameOnly = await upload(MP4);
    assert.equal(r.body.blurhash, frameOnly.body.blurhash);
    const v2 = await upload(MP4, 2, await thumbnailPng());
    assert.equal(v2.status, 202);
    const done = await poll(v2.body.id);
    assert.equal(done.status, 200);
    assert.match(done.body.preview_url, /\/thumbnail\.jpg$/);
    assert.equal(done.body.blurhash, frameOnly.body.blurhash);
    assert.deepEqual((await filesOf(v2.body.id)).sort(), ["original.mp4", "small.jpg", "thumbnail.jpg"]);
  });
});
