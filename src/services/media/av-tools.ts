import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import type { AppContext } from "../../context.ts";

/** Paths of the system's ffprobe and ffmpeg, when installed (video and audio metadata need them). */
export interface AvTools {
  ffprobe: string | null;
  ffmpeg: string | null;
}

// Looked up once per context, on the first video or audio upload, not at start-up.
const lookups = new WeakMap<AppContext, Promise<AvTools>>();

async function onPath(name: string): Promise<string | null> {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return null;
}

export function avTools(ctx: AppContext): Promise<AvTools> {
  let found = lookups.get(ctx);
  if (!found) {
    found = Promise.all([onPath("ffprobe"), onPath("ffmpeg")]).then(([ffprobe, ffmpeg]) => ({ ffprobe, ffmpeg }));
    lookups.set(ctx, found);
  }
  return found;
}

function run(file: string, args: string[], timeoutMs = 60_000): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { encoding: "buffer", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
  });
}

export interface AvProbe {
  duration: number | null;
  bitrate: number | null;
  video: { width: number; height: number; frameRate: string | null; fps: number | null } | null;
  audio: { codec: string | null; bitrate: number | null; channels: string | null; sampleRate: number | null } | null;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  bit_rate?: string;
  channels?: number;
  channel_layout?: string;
  sample_rate?: string;
}

const num = (v: unknown): number | null => {
  const n = Number(v);
  return v !== undefined && v !== null && v !== "" && Number.isFinite(n) ? n : null;
};

function rate(r: string | undefined): number | null {
  if (!r) return null;
  const [a, b] = r.split("/").map(Number);
  return a !== undefined && b ? a / b : num(a);
}

/** Runs `fn` with the bytes in a temporary file (ffmpeg reads containers that need seeking). */
export async function withTempFile<T>(data: Uint8Array, ext: string, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "gannet-media-"));
  try {
    const path = join(dir, `input.${ext}`);
    await writeFile(path, data);
    return await fn(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function probe(tools: AvTools, path: string): Promise<AvProbe> {
  if (!tools.ffprobe) throw new Error("ffprobe is not installed");
  const out = await run(tools.ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path]);
  const json = JSON.parse(out.toString("utf8")) as { format?: Record<string, unknown>; streams?: FfprobeStream[] };
  const streams = json.streams ?? [];
  const v = streams.find((s) => s.codec_type === "video" && s.width && s.height);
  const a = streams.find((s) => s.codec_type === "audio");
  return {
    duration: num(json.format?.duration),
    bitrate: num(json.format?.bit_rate),
    video: v
      ? {
          width: Number(v.width),
          height: Number(v.height),
          frameRate: v.avg_frame_rate && v.avg_frame_rate !== "0/0" ? v.avg_frame_rate : (v.r_frame_rate ?? null),
          fps: rate(v.avg_frame_rate !== "0/0" ? v.avg_frame_rate : v.r_frame_rate),
        }
      : null,
    audio: a
      ? {
          codec: a.codec_name ?? null,
          bitrate: num(a.bit_rate),
          channels: a.channel_layout ?? (a.channels ? String(a.channels) : null),
          sampleRate: num(a.sample_rate),
        }
      : null,
  };
}

/** The first frame of a video as PNG bytes. */
export async function extractFrame(tools: AvTools, path: string): Promise<Uint8Array> {
  if (!tools.ffmpeg) throw new Error("ffmpeg is not installed");
  const out = await run(tools.ffmpeg, [
    "-v",
    "error",
    "-i",
    path,
    "-frames:v",
    "1",
    "-f",
    "image2pipe",
    "-c:v",
    "png",
    "pipe:1",
  ]);
  return new Uint8Array(out);
}

/**
 * An animated GIF as a silent, looping-friendly H.264 MP4 (Mastodon's `gifv`): much smaller, and
 * what clients expect. Dimensions are rounded down to even numbers, as the codec requires.
 */
export async function gifToMp4(tools: AvTools, path: string): Promise<Uint8Array> {
  if (!tools.ffmpeg) throw new Error("ffmpeg is not installed");
  const out = `${path}.mp4`;
  await run(tools.ffmpeg, [
    "-v",
    "error",
    "-i",
    path,
    "-an",
    "-movflags",
    "+faststart",
    "-pix_fmt",
    "yuv420p",
    "-vf",
    "scale=trunc(iw/2)*2:trunc(ih/2)*2",
    "-c:v",
    "libx264",
    "-f",
    "mp4",
    out,
  ]);
  return new Uint8Array(await readFile(out));
}
