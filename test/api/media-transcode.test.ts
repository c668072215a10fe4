import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { mediaFilesOf, pollMedia } from "../helpers/media-files.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Uploads through the real ffmpeg and ffprobe, when the machine has them (CI installs them):
 * probing, the MP4 that is served (copied or encoded again), the preview frame, and `gifv`.
 * The inputs are made by ffmpeg itself, a second long and tiny, so the suite stays quick.
 */

async function onPath(name: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      await access(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {}
  }
  return null;
}

const ffmpeg = await onPath("ffmpeg");
const ffprobe = await onPath("ffprobe");
const missing = !ffmpeg || !ffprobe ? "ffmpeg and ffprobe are not installed (apt-get install ffmpeg)" : false;

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(file, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}

interface Probed {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number; pix_fmt?: string }[];
  format: { tags?: Record<string, string> };
}

describe("media attachments through the real ffmpeg", { skip: missing }, () => {
  let s: TestServer;
  let alice: TestUser;
  let dir: string;

  /** A one-second test picture (and a tone, unless `silent`) encoded by ffmpeg with `codec`. */
  const make = async (name: string, opts: { size: string; codec: string[]; silent?: boolean; format?: string }) => {
    const out = join(dir, name);
    const audio = opts.silent ? [] : ["-f", "lavfi", "-i", "sine=frequency=440:duration=1"];
    await run(ffmpeg ?? "", [
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      `testsrc=size=${opts.size}:rate=10:duration=1`,
      ...audio,
      ...opts.codec,
      "-metadata",
      "title=SECRET-TITLE",
      ...(opts.format ? ["-f", opts.format] : []),
      "-y",
      out,
    ]);
    return new Uint8Array(await readFile(out));
  };
  const upload = (file: Uint8Array, version = 1) => {
    const f = new FormData();
    f.append("file", new Blob([new Uint8Array(file)]), "upload.bin");
    return s.request(`/api/v${version}/media`, { method: "POST", token: alice.token, multipart: f });
  };
  /** What ffprobe says about a served file. */
  const probeServed = async (url: string) => {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "video/mp4");
    const bytes = Buffer.from(await res.arrayBuffer());
    const path = join(dir, `served-${Date.now()}-${Math.random().toString(36).slice(2)}.mp4`);
    await writeFile(path, bytes);
    const probed = JSON.parse(
      await run(ffprobe ?? "", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path]),
    ) as Probed;
    return {
      bytes,
      video: probed.streams.find((x) => x.codec_type === "video"),
      audio: probed.streams.find((x) => x.codec_type === "audio"),
    };
  };
  const filesOf = (id: string) => mediaFilesOf(s, id);
  const poll = (id: string) => pollMedia(s, alice.token, id, 300, 50);

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "gannet-transcode-"));
    s = await startTestServer();
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const h264aac = ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest"];

  it("copies H.264/AAC video into a new MP4 without its metadata, with a preview frame", async () => {
    const input = await make("h264.mp4", { size: "64x48", codec: h264aac });
    assert.ok(Buffer.from(input).includes("SECRET-TITLE"), "the input carries a title");
    const r = await upload(input);
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "video");
    assert.match(r.body.url, /\/original\.mp4$/);
    assert.match(r.body.preview_url, /\/small\.(jpg|png)$/);
    assert.equal(r.body.meta.original.width, 64);
    assert.equal(r.body.meta.original.height, 48);
    assert.equal(r.body.meta.original.frame_rate, "10/1");
    assert.ok(Math.abs(r.body.meta.original.duration - 1) < 0.2, String(r.body.meta.original.duration));
    assert.deepEqual(r.body.meta.small, { width: 64, height: 48, size: "64x48", aspect: 64 / 48 });
    const served = await probeServed(r.body.url);
    assert.equal(served.video?.codec_name, "h264");
    assert.equal(served.audio?.codec_name, "aac");
    assert.ok(!served.bytes.includes("SECRET-TITLE"), "metadata is dropped");
    const frame = await sharp(Buffer.from(await (await fetch(r.body.preview_url)).arrayBuffer())).metadata();
    assert.equal(frame.width, 64);
  });

  it("encodes other video again as H.264/AAC in 4:2:0, cropping odd sizes to even ones", async () => {
    const input = await make("mpeg4.mov", {
      size: "65x49",
      codec: ["-c:v", "mpeg4", "-c:a", "aac", "-shortest"],
      format: "mov",
    });
    const r = await upload(input);
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "video");
    assert.match(r.body.url, /\/original\.mp4$/);
    assert.equal(r.body.meta.original.width, 64);
    assert.equal(r.body.meta.original.height, 48);
    const served = await probeServed(r.body.url);
    assert.equal(served.video?.codec_name, "h264");
    assert.equal(served.video?.pix_fmt, "yuv420p");
    assert.equal(served.audio?.codec_name, "aac");
    assert.ok(!served.bytes.includes("SECRET-TITLE"));
  });

  it("turns a video without sound into gifv, as Mastodon does", async () => {
    const input = await make("silent.mp4", { size: "64x48", codec: ["-c:v", "mpeg4"], silent: true });
    const r = await upload(input);
    assert.equal(r.status, 200);
    assert.equal(r.body.type, "gifv");
    const served = await probeServed(r.body.url);
    assert.equal(served.video?.codec_name, "h264");
    assert.equal(served.audio, undefined);
  });

  it("transcodes WebM in the background job on v2, then serves the MP4", async (t) => {
    let input: Uint8Array;
    try {
      input = await make("vp8.webm", { size: "64x48", codec: ["-c:v", "libvpx", "-c:a", "libopus", "-shortest"] });
    } catch {
      return t.skip("this ffmpeg cannot write WebM (libvpx, libopus)");
    }
    const r = await upload(input, 2);
    assert.equal(r.status, 202);
    assert.equal(r.body.url, null);
    const done = await poll(r.body.id);
    assert.equal(done.status, 200);
    assert.equal(done.body.type, "video");
    assert.match(done.body.url, /\/original\.mp4$/);
    assert.match(done.body.preview_url, /\/small\.(jpg|png)$/);
    assert.equal(done.body.meta.original.width, 64);
    const served = await probeServed(done.body.url);
    assert.equal(served.video?.codec_name, "h264");
    assert.equal(served.audio?.codec_name, "aac");
    assert.deepEqual((await filesOf(r.body.id)).sort().length, 2, "the WebM upload is gone");
  });

  it("turns an animated GIF into a looping gifv MP4, on v1 at once and on v2 in the job", async () => {
    const frame = (color: string) =>
      sharp({ create: { width: 33, height: 21, channels: 3, background: color } })
        .png()
        .toBuffer();
    const gif = await sharp([await frame("#ff0000"), await frame("#00ff00"), await frame("#0000ff")], {
      join: { animated: true },
    })
      .gif({ loop: 0, delay: [100, 100, 100] })
      .toBuffer();
    for (const version of [1, 2]) {
      const r = await upload(new Uint8Array(gif), version);
      assert.equal(r.status, version === 1 ? 200 : 202);
      assert.equal(r.body.type, "gifv");
      const done = version === 1 ? r : await poll(r.body.id);
      assert.equal(done.status, 200);
      assert.match(done.body.url, /\/original\.mp4$/);
      assert.match(done.body.preview_url, /\/small\.(jpg|png)$/);
      const served = await probeServed(done.body.url);
      assert.equal(served.video?.codec_name, "h264");
      assert.equal(served.video?.width, 32, "cropped to even sides");
      assert.equal(served.video?.height, 20);
      assert.equal(served.audio, undefined);
    }
    // A GIF of one frame stays an image.
    const still = await upload(
      new Uint8Array(
        await sharp(await frame("#123456"))
          .gif()
          .toBuffer(),
      ),
    );
    assert.equal(still.body.type, "image");
  });

  it("refuses a file ffprobe cannot read", async () => {
    const header = Buffer.alloc(40);
    header.writeUInt32BE(24, 0);
    header.write("ftypisomiso2avc1mp41", 4, "ascii");
    header.writeUInt32BE(16, 24);
    header.write("mdat", 28, "ascii");
    assert.equal((await upload(new Uint8Array(header))).status, 422);
    assert.equal((await upload(new Uint8Array(header), 2)).status, 422);
  });
});
