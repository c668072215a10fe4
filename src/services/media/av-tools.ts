import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import type { AppContext } from "../../context.ts";

/** Paths of the system's ffprobe and ffmpeg, when installed (video and audio metadata need them). */
export interface AvTools {
  ffprobe: string | null;
  ffmpeg: string | null;
}

// Looked up once per context, on the first video or audio upload, not at start-up.
const lookups = new WeakMap<AppContext, Promise<AvTools>>();

async function executable(path: string): Promise<string | null> {
  try {
    await access(path, constants.X_OK);
    return path;
  } catch {
    return null;
  }
}

/** A command as configured: a path (with a slash) as it is, a bare name looked up on the PATH. */
async function findCommand(command: string): Promise<string | null> {
  if (command.includes("/")) return executable(resolve(command));
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    const found = await executable(join(dir, command));
    if (found) return found;
  }
  return null;
}

export function avTools(ctx: AppContext): Promise<AvTools> {
  let found = lookups.get(ctx);
  if (!found) {
    found = Promise.all([findCommand(ctx.config.ffprobeBinary), findCommand(ctx.config.ffmpegBinary)]).then(
      ([ffprobe, ffmpeg]) => ({ ffprobe, ffmpeg }),
    );
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
  video: {
    width: number;
    height: number;
    frameRate: string | null;
    fps: number | null;
    /** The container's base frame rate (`r_frame_rate`): far above `fps` in variable-rate video. */
    baseFps: number | null;
    codec: string | null;
    pixelFormat: string | null;
  } | null;
  audio: { codec: string | null; bitrate: number | null; channels: string | null; sampleRate: number | null } | null;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  pix_fmt?: string;
  bit_rate?: string;
  channels?: number;
  channel_layout?: string;
  sample_rate?: string;
  disposition?: { attached_pic?: number };
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
  // Cover art in an audio file is a one-frame "video" stream: it makes no video.
  const v = streams.find((s) => s.codec_type === "video" && s.width && s.height && !s.disposition?.attached_pic);
  const a = streams.find((s) => s.codec_type === "audio");
  const avg = v?.avg_frame_rate && v.avg_frame_rate !== "0/0" ? v.avg_frame_rate : undefined;
  return {
    duration: num(json.format?.duration),
    bitrate: num(json.format?.bit_rate),
    video: v
      ? {
          width: Number(v.width),
          height: Number(v.height),
          frameRate: avg ?? v.r_frame_rate ?? null,
          fps: rate(avg ?? v.r_frame_rate),
          baseFps: rate(v.r_frame_rate),
          codec: v.codec_name ?? null,
          pixelFormat: v.pix_fmt ?? null,
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
    "-nostdin",
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
 * How a video becomes the MP4 that is served, with Mastodon's settings: H.264 video and AAC
 * audio already in 4:2:0 colour are copied into a new MP4 as they are (`copy`); anything else is
 * encoded again (`encode`) at a bit rate chosen from its size (0.11 bits per pixel at 30 frames
 * a second) and bounded so that its length fits the upload size limit.
 */
export type Mp4Plan =
  | { kind: "copy" }
  | { kind: "encode"; videoBitrate: number; variableFrameRate: boolean; maxFrames: number };

/** Audio is encoded at 192 kb/s; the video's bit rate leaves room for it. */
const AUDIO_BITRATE = 192_000;

export function encodePlan(
  video: { width: number; height: number; baseFps: number | null },
  duration: number | null,
  limits: { sizeLimit: number; frameRateLimit: number; maxFrames: number },
): Mp4Plan {
  const desired = Math.floor(video.width * video.height * 30 * 0.11);
  const longest = Math.floor((limits.sizeLimit * 8) / Math.max(duration ?? 0, 1)) - AUDIO_BITRATE;
  return {
    kind: "encode",
    videoBitrate: Math.max(1, Math.min(desired, longest)),
    variableFrameRate: video.baseFps !== null && video.baseFps > limits.frameRateLimit,
    maxFrames: limits.maxFrames,
  };
}

/** Transcoding a long video takes a while; a run past this is taken as stuck. */
const TRANSCODE_TIMEOUT_MS = 15 * 60_000;

/**
 * Writes `input` as an MP4 to `output` by `plan`. Metadata (camera, location, dates), subtitles
 * and data streams are left out; the index goes first so playback starts before the download
 * ends. H.264 needs even dimensions: an odd last row or column is cropped, as Mastodon does.
 */
export async function toMp4(tools: AvTools, input: string, output: string, plan: Mp4Plan): Promise<void> {
  if (!tools.ffmpeg) throw new Error("ffmpeg is not installed");
  const codecs =
    plan.kind === "copy"
      ? ["-c:v", "copy", "-c:a", "copy"]
      : [
          "-c:v",
          "libx264",
          "-preset",
          "veryfast",
          "-pix_fmt",
          "yuv420p",
          "-vf",
          "crop=floor(iw/2)*2:floor(ih/2)*2",
          "-b:v",
          String(plan.videoBitrate),
          "-maxrate",
          String(plan.videoBitrate + AUDIO_BITRATE),
          "-bufsize",
          String(plan.videoBitrate * 5),
          ...(plan.variableFrameRate ? ["-vsync", "vfr"] : []),
          "-frames:v",
          String(plan.maxFrames),
          "-c:a",
          "aac",
          "-b:a",
          "192k",
        ];
  await run(
    tools.ffmpeg,
    [
      "-nostdin",
      "-v",
      "error",
      "-i",
      input,
      "-map_metadata",
      "-1",
      "-sn",
      "-dn",
      ...codecs,
      "-movflags",
      "+faststart",
      "-f",
      "mp4",
      "-y",
      output,
    ],
    TRANSCODE_TIMEOUT_MS,
  );
}

/** Reads a file written by one of the tools. */
export async function readOutput(path: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path));
}
