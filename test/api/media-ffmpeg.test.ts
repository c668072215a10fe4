import assert from "node:assert/strict";
import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { mediaFilesOf, pollMedia } from "../helpers/media-files.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Video and audio with ffprobe and ffmpeg, through stand-ins the server is configured with
 * (FFMPEG_BINARY, FFPROBE_BINARY), so every machine runs these: ffprobe prints canned JSON (it
 * fails for a file containing BROKEN), ffmpeg writes a PNG frame or "converts" by copying its
 * input, and logs its arguments, which show the settings chosen (media-transcode.test.ts runs
 * the real tools when they are installed).
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
/** H.264 in 4:2:0 colour with AAC audio: copied, not encoded again. */
const COPYABLE_JSON = {
  format: { duration: "4.0", bit_rate: "500000" },
  streams: [
    {
      codec_type: "video",
      codec_name: "h264",
      pix_fmt: "yuv420p",
      width: 640,
      height: 360,
      avg_frame_rate: "25/1",
      r_frame_rate: "25/1",
    },
    { codec_type: "audio", codec_name: "aac", channels: 2, channel_layout: "stereo", sample_rate: "48000" },
  ],
};
/** The same without sound: Mastodon makes it a `gifv`. */
const SILENT_JSON = { format: COPYABLE_JSON.format, streams: [COPYABLE_JSON.streams[0]] };
/** Variable frame rate: 30 frames a second on average, a 1000/s time base. */
const VFR_JSON = {
  format: { duration: "600.0" },
  streams: [
    {
      codec_type: "video",
      codec_name: "vp9",
      pix_fmt: "yuv420p",
      width: 1920,
      height: 1080,
      avg_frame_rate: "30/1",
      r_frame_rate: "1000/1",
    },
    { codec_type: "audio", codec_name: "opus", channels: 2, sample_rate: "48000" },
  ],
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
  const filesOf = (id: string) => mediaFilesOf(s, id);
  const poll = (id: string) => pollMedia(s, alice.token, id);

  before(async () => {
    tools = await mkdtemp(join(tmpdir(), "gannet-fake-ffmpeg-"));
    await writeFile(join(tools, "video.json"), JSON.stringify(VIDEO_JSON));
    await writeFile(join(tools, "audio.json"), JSON.stringify(AUDIO_JSON));
    await writeFile(join(tools, "huge.json"), JSON.stringify(HUGE_JSON));
    await writeFile(join(tools, "fast.json"), JSON.stringify(FAST_JSON));
    await writeFile(join(tools, "copyable.json"), JSON.stringify(COPYABLE_JSON));
    await writeFile(join(tools, "silent.json"), JSON.stringify(SILENT_JSON));
    await writeFile(join(tools, "vfr.json"), JSON.stringify(VFR_JSON));
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
      `#!/bin/sh\n${last}\nif grep -q BROKEN "$last"; then echo "invalid data" >&2; exit 1; fi\nif grep -q HUGE "$last"; then cat "${tools}/huge.json"; exit 0; fi\nif grep -q FAST "$last"; then cat "${tools}/fast.json"; exit 0; fi\nif grep -q COPYABLE "$last"; then cat "${tools}/copyable.json"; exit 0; fi\nif grep -q SILENT "$last"; then cat "${tools}/silent.json"; exit 0; fi\nif grep -q VFR "$last"; then cat "${tools}/vfr.json"; exit 0; fi\ncase "$last" in\n  *.wav|*.mp3) cat "${tools}/audio.json" ;;\n  *) cat "${tools}/video.json" ;;\nesac\n`,
    );
    // Frame extraction: fails for a file containing NOFRAME; for one containing GATE, waits
    // until the test creates the file `open`, so a test sees the upload while it is processed.
    // Conversion to MP4 copies the input, so the markers reach the frame extraction after it.
    const input = 'in=""; prev=""; for a in "$@"; do [ "$prev" = "-i" ] && in="$a"; prev="$a"; done';
    await writeFile(
      join(tools, "ffmpeg"),
      `#!/bin/sh\necho "$*" >> "${tools}/ffmpeg.log"\n${last}\n${input}\ncase "$*" in\n  *image2pipe*)\n    if grep -q NOFRAME "$in"; then echo "decode error" >&2; exit 1; fi\n    if grep -q GATE "$in"; then while [ ! -f "${tools}/open" ]; do sleep 0.02; done; fi\n    cat "${tools}/frame.png" ;;\n  *"-f mp4"*) cp "$in" "$last" ;;\n  *) exit 1 ;;\nesac\n`,
    );
    await chmod(join(tools, "ffprobe"), 0o755);
    await chmod(join(tools, "ffmpeg"), 0o755);
    s = await startTestServer({ FFMPEG_BINARY: join(tools, "ffmpeg"), FFPROBE_BINARY: join(tools, "ffprobe") });
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s.close();
    await rm(tools, { recursive: true, force: true });
  });
  const openGate = () => writeFile(join(tools, "open"), "");
  /** The ffmpeg runs since the last call: one line of arguments each. */
  const ffmpegRuns = async () => {
    const log = join(tools, "ffmpeg.log");
    const text = await readFile(log, "utf8").catch(() => "");
    await rm(log, { force: true });
    return text.split("\n").filter(Boolean);
  };
  const webm = (marker: string) =>
    new Uint8Array(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.from(`webm${marker}`)]));

  it("reads a video's metadata and makes a preview from its first frame", async () => {
    await ffmpegRuns();
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
    // H.264 without a known colour format: encoded again, with Mastodon's settings; its bit rate
    // is 0.11 bits per pixel at 30 frames a second (320×240: 253,440 b/s).
    const [encode, frame] = await ffmpegRuns();
    for (const arg of [
      "-map_metadata -1",
      "-c:v libx264 -preset veryfast -pix_fmt yuv420p",
      "-vf crop=floor(iw/2)*2:floor(ih/2)*2",
      "-b:v 253440 -maxrate 445440 -bufsize 1267200",
      "-frames:v 36000",
      "-c:a aac -b:a 192k",
      "-movflags +faststart -f mp4",
    ]) {
      assert.ok(encode?.includes(arg), `${arg} in ${encode}`);
    }
    assert.ok(!encode?.includes("-vsync"), "a constant frame rate stays");
    assert.match(frame ?? "", /-frames:v 1 -f image2pipe/);
  });

  it("copies H.264 with AAC in 4:2:0 colour into a new MP4 without encoding; one without sound is gifv", async () => {
    await ffmpegRuns();
    const r = await upload(marked("COPYABLE"));
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "video");
    assert.match(r.body.url, /\/original\.mp4$/);
    const [copy] = await ffmpegRuns();
    assert.match(copy ?? "", /-map_metadata -1 -sn -dn -c:v copy -c:a copy -movflags \+faststart -f mp4/);
    assert.ok(!copy?.includes("libx264"));

    const silent = await upload(marked("SILENT"));
    assert.equal(silent.status, 200);
    assert.equal(silent.body.type, "gifv", "Mastodon plays a video without sound as a looping gifv");
    assert.match(silent.body.url, /\/original\.mp4$/);
    assert.match((await ffmpegRuns())[0] ?? "", /-c:v copy/);
  });

  it("always encodes WebM again (into MP4), and keeps a variable frame rate when the time base passes 120/s", async () => {
    await ffmpegRuns();
    const r = await upload(webm("VFR"));
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "video");
    assert.match(r.body.url, /\/original\.mp4$/);
    assert.equal((await fetch(r.body.url)).headers.get("content-type"), "video/mp4");
    assert.deepEqual((await filesOf(r.body.id)).sort(), ["original.mp4", "small.jpg"]);
    const [encode] = await ffmpegRuns();
    assert.match(encode ?? "", /-c:v libx264/);
    assert.match(encode ?? "", /-vsync vfr/);
    // 1920×1080 wants 6,842,880 b/s; ten minutes within 99 MiB allow 1,384,120 b/s, less 192 kb/s of audio.
    assert.match(encode ?? "", /-b:v 1192120 -maxrate 1384120 -bufsize 5960600/);
    // Even H.264 in WebM is encoded again.
    await upload(webm("COPYABLE"));
    assert.match((await ffmpegRuns())[0] ?? "", /-c:v libx264/);
  });

  it("transcodes a v2 upload in the background job, replacing the uploaded file", async () => {
    const r = await upload(webm("COPYABLE"), 2);
    assert.equal(r.status, 202);
    assert.equal(r.body.url, null);
    const done = await poll(r.body.id);
    assert.equal(done.status, 200);
    assert.equal(done.body.type, "video");
    assert.match(done.body.url, /\/original\.mp4$/);
    assert.equal((await fetch(done.body.url)).headers.get("content-type"), "video/mp4");
    assert.deepEqual((await filesOf(r.body.id)).sort(), ["original.mp4", "small.jpg"], "the upload is gone");
    const row = await s.ctx.repos.media.getById(r.body.id);
    assert.equal(row?.fileContentType, "video/mp4");
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
    // On v2 the job keeps it as uploaded, under the same name as on v1.
    const v2 = await upload(wav(), 2);
    assert.equal(v2.status, 202);
    const done = await poll(v2.body.id);
    assert.equal(done.status, 200);
    assert.equal(done.body.type, "audio");
    assert.match(done.body.url, /\/original\.wav$/);
    assert.deepEqual(await filesOf(v2.body.id), ["original.wav"]);
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
    assert.ok(
      (await ffmpegRuns()).some((run) => run.includes("-c:v libx264") && run.includes("-pix_fmt yuv420p")),
      "encoded with the video settings",
    );

    // On v2 the conversion is the background job's: 202 with the first frame as preview at once.
    const v2 = await upload(new Uint8Array(gif), 2);
    assert.equal(v2.status, 202);
    assert.equal(v2.body.type, "gifv");
    assert.equal(v2.body.url, null);
    assert.match(v2.body.preview_url, /\/small\.(png|jpg)$/);
    const done = await poll(v2.body.id);
    assert.equal(done.status, 200);
    assert.equal(done.body.type, "gifv");
    assert.match(done.body.url, /\/original\.mp4$/);
    assert.equal(done.body.preview_url, v2.body.preview_url);
    const files = (await filesOf(v2.body.id)).sort();
    assert.equal(files.length, 2);
    assert.equal(files[0], "original.mp4");
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
    assert.match(r.body.preview_url, /\/thumbnail\.png$/);
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

  it("keeps a custom thumbnail as a video's preview, in its format and size; the blurhash comes from its first frame", async () => {
    const thumbSmall = { width: 200, height: 100, size: "200x100", aspect: 2 };
    const r = await upload(MP4, 1, await thumbnailPng());
    assert.equal(r.status, 200);
    assert.match(r.body.preview_url, /\/thumbnail\.png$/);
    assert.equal((await fetch(r.body.preview_url)).headers.get("content-type"), "image/png");
    assert.deepEqual(r.body.meta.small, thumbSmall, "meta.small is the thumbnail's size, not the frame's");
    assert.deepEqual((await filesOf(r.body.id)).sort(), ["original.mp4", "small.jpg", "thumbnail.png"]);
    const frameOnly = await upload(MP4);
    assert.equal(r.body.blurhash, frameOnly.body.blurhash);
    const v2 = await upload(MP4, 2, await thumbnailPng());
    assert.equal(v2.status, 202);
    const done = await poll(v2.body.id);
    assert.equal(done.status, 200);
    assert.match(done.body.preview_url, /\/thumbnail\.png$/);
    assert.deepEqual(done.body.meta.small, thumbSmall, "the job keeps the thumbnail's size");
    assert.equal(done.body.blurhash, frameOnly.body.blurhash);
    assert.deepEqual((await filesOf(v2.body.id)).sort(), ["original.mp4", "small.jpg", "thumbnail.png"]);
  });
});
