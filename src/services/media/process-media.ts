import type { Sharp } from "sharp";
import { encodeBlurhash } from "../../lib/blurhash.ts";
import { ApiError } from "../../lib/errors.ts";
import { MEDIA_LIMITS } from "../../lib/limits.ts";
import { sharpOf } from "../../lib/sharp.ts";
import { type AvProbe, type AvTools, encodePlan, probe, readOutput, toMp4, withTempFile } from "./av-tools.ts";
import type { SniffedType } from "./sniff.ts";

/** The `small` preview fits inside this box, as Mastodon's does. */
const SMALL_SIZE = 640;
/** A custom thumbnail is scaled down to this many pixels at most (Mastodon's `small` style: 640×360). */
const THUMBNAIL_PIXELS = 230_400;
/** Mastodon's cap on the frames of a transcoded video (about 5 minutes at 120 frames a second). */
export const MAX_VIDEO_FRAMES = 36_000;
/** Images larger than this are refused before decoding (a tiny file can decode to gigabytes). */
const MAX_INPUT_PIXELS = MEDIA_LIMITS.imageMatrixLimit * 4;

export interface EncodedFile {
  data: Uint8Array;
  contentType: string;
  extension: string;
}

export interface ProcessedMedia {
  type: "image" | "gifv" | "video" | "audio";
  original: EncodedFile;
  small: EncodedFile | null;
  blurhash: string | null;
  meta: Record<string, unknown>;
}

export const unprocessable = (): ApiError => new ApiError(422, "Validation failed: File could not be processed");

export interface Dimensions {
  width: number;
  height: number;
  size: string;
  aspect: number;
}

export const dims = (width: number, height: number): Dimensions => ({
  width,
  height,
  size: `${width}x${height}`,
  aspect: width / height,
});

/** Output encodings: each format is re-encoded as itself (HEIC, which browsers rarely show, as JPEG). */
const ENCODING: Record<string, { format: "jpeg" | "png" | "webp" | "gif" | "avif"; contentType: string; ext: string }> =
  {
    jpeg: { format: "jpeg", contentType: "image/jpeg", ext: "jpg" },
    png: { format: "png", contentType: "image/png", ext: "png" },
    webp: { format: "webp", contentType: "image/webp", ext: "webp" },
    gif: { format: "gif", contentType: "image/gif", ext: "gif" },
    heif: { format: "avif", contentType: "image/avif", ext: "avif" },
  };

function encode(pipeline: Sharp, format: "jpeg" | "png" | "webp" | "gif" | "avif"): Sharp {
  switch (format) {
    case "jpeg":
      return pipeline.jpeg({ quality: 90, mozjpeg: true });
    case "webp":
      return pipeline.webp({ quality: 90 });
    case "gif":
      return pipeline.gif();
    case "avif":
      return pipeline.avif({ quality: 70 });
    default:
      return pipeline.png();
  }
}

async function blurhashOf(image: Uint8Array): Promise<string> {
  const { data, info } = await (await sharpOf(image, { animated: false }))
    .resize(32, 32, { fit: "inside" })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return encodeBlurhash(new Uint8Array(data), info.width, info.height, 4, 4);
}

/** A preview of any image: fitted inside 640×640, PNG when it has transparency, else JPEG. */
export async function previewOf(
  image: Uint8Array,
  keep?: "webp",
): Promise<{ file: EncodedFile; dims: Dimensions; blurhash: string }> {
  const base = (await sharpOf(image, { animated: false, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }))
    .rotate()
    .resize(SMALL_SIZE, SMALL_SIZE, { fit: "inside", withoutEnlargement: true });
  const hasAlpha = (await (await sharpOf(image, { limitInputPixels: MAX_INPUT_PIXELS })).metadata()).hasAlpha;
  const enc = keep === "webp" ? ENCODING.webp : hasAlpha ? ENCODING.png : ENCODING.jpeg;
  if (!enc) throw unprocessable();
  const { data, info } = await encode(base, enc.format).toBuffer({ resolveWithObject: true });
  const bytes = new Uint8Array(data);
  return {
    file: { data: bytes, contentType: enc.contentType, extension: enc.ext },
    dims: dims(info.width, info.height),
    blurhash: await blurhashOf(bytes),
  };
}

/**
 * A custom thumbnail (for audio and video) made safe to serve: decoded, turned upright, scaled
 * down to Mastodon's thumbnail size and re-encoded in its own format, as Mastodon keeps it (a
 * GIF keeps its first frame; HEIC, which browsers rarely show, becomes JPEG).
 */
export async function thumbnailOf(
  image: Uint8Array,
): Promise<{ file: EncodedFile; dims: Dimensions; blurhash: string }> {
  const meta = await (await sharpOf(image, { limitInputPixels: MAX_INPUT_PIXELS })).metadata();
  const enc = meta.format === "heif" ? ENCODING.jpeg : meta.format ? ENCODING[meta.format] : undefined;
  if (!enc || !meta.width || !meta.height) throw unprocessable();
  let pipeline = (
    await sharpOf(image, { animated: false, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
  ).rotate();
  // EXIF orientations 5 to 8 swap the sides.
  const [width, height] = (meta.orientation ?? 1) >= 5 ? [meta.height, meta.width] : [meta.width, meta.height];
  const frameHeight = meta.pageHeight && meta.pageHeight < height ? meta.pageHeight : height;
  if (width * frameHeight > THUMBNAIL_PIXELS) {
    const scale = Math.sqrt(THUMBNAIL_PIXELS / (width * frameHeight));
    pipeline = pipeline.resize(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(frameHeight * scale)));
  }
  const { data, info } = await encode(pipeline, enc.format).toBuffer({ resolveWithObject: true });
  const bytes = new Uint8Array(data);
  return {
    file: { data: bytes, contentType: enc.contentType, extension: enc.ext },
    dims: dims(info.width, info.pageHeight ?? info.height),
    blurhash: await blurhashOf(bytes),
  };
}

/** Whether an upload is a GIF of more than one frame (which ffmpeg turns into `gifv`). */
export async function isAnimatedGif(bytes: Uint8Array, sniffed: SniffedType): Promise<boolean> {
  if (sniffed.contentType !== "image/gif") return false;
  try {
    return ((await (await sharpOf(bytes, { limitInputPixels: MAX_INPUT_PIXELS })).metadata()).pages ?? 1) > 1;
  } catch {
    return false;
  }
}

/**
 * An animated GIF as `gifv`: a silent H.264 MP4 that clients play in a loop, encoded with
 * Mastodon's video settings (much smaller than the GIF). Null when ffmpeg cannot convert it.
 */
async function toGifv(bytes: Uint8Array, tools: AvTools): Promise<ProcessedMedia | null> {
  try {
    return await withTempFile(bytes, "gif", async (path) => {
      const small = await previewOf(bytes);
      const first = await (await sharpOf(bytes, { animated: false })).metadata();
      const probed = tools.ffprobe ? await probe(tools, path).catch(() => null) : null;
      const size = { width: first.width ?? 0, height: first.height ?? 0, baseFps: probed?.video?.baseFps ?? null };
      const out = `${path}.mp4`;
      await toMp4(
        tools,
        path,
        out,
        encodePlan(size, probed?.duration ?? null, {
          sizeLimit: MEDIA_LIMITS.videoSizeLimit,
          frameRateLimit: MEDIA_LIMITS.videoFrameRateLimit,
          maxFrames: MAX_VIDEO_FRAMES,
        }),
      );
      const mp4 = await readOutput(out);
      const converted = tools.ffprobe ? await probe(tools, out).catch(() => null) : null;
      return {
        type: "gifv" as const,
        original: { data: mp4, contentType: "video/mp4", extension: "mp4" },
        small: small.file,
        blurhash: small.blurhash,
        meta: converted?.video
          ? avMeta(converted, small.dims)
          : { original: dims(size.width, size.height), small: small.dims },
      };
    });
  } catch {
    return null;
  }
}

/**
 * An uploaded image made safe to serve: decoded (anything that fails is refused), turned upright,
 * bounded to the pixel limit and re-encoded, which drops its metadata (EXIF location, camera).
 * Animated GIFs become `gifv` when ffmpeg is installed (pass `tools`); otherwise they stay
 * images and keep their frames.
 */
export async function processImage(bytes: Uint8Array, sniffed: SniffedType, tools?: AvTools): Promise<ProcessedMedia> {
  const animated = sniffed.contentType === "image/gif" || sniffed.contentType === "image/webp";
  try {
    const meta = await (await sharpOf(bytes, { animated, limitInputPixels: MAX_INPUT_PIXELS })).metadata();
    const enc = meta.format ? ENCODING[meta.format] : undefined;
    if (!enc || !meta.width || !meta.height) throw unprocessable();
    if (meta.format === "gif" && (meta.pages ?? 1) > 1 && tools?.ffmpeg) {
      const gifv = await toGifv(bytes, tools);
      if (gifv) return gifv;
    }
    const frameHeight = meta.pageHeight ?? meta.height;
    let pipeline = (await sharpOf(bytes, { animated, limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })).rotate();
    const pixels = meta.width * frameHeight;
    if (pixels > MEDIA_LIMITS.imageMatrixLimit) {
      const scale = Math.sqrt(MEDIA_LIMITS.imageMatrixLimit / pixels);
      pipeline = pipeline.resize({ width: Math.floor(meta.width * scale) });
    }
    const { data, info } = await encode(pipeline, enc.format).toBuffer({ resolveWithObject: true });
    const original = new Uint8Array(data);
    const height = info.pageHeight ?? info.height;
    const small = await previewOf(original, enc.format === "webp" ? "webp" : undefined);
    return {
      type: "image",
      original: { data: original, contentType: enc.contentType, extension: enc.ext },
      small: small.file,
      blurhash: small.blurhash,
      meta: { original: dims(info.width, height), small: small.dims },
    };
  } catch (e) {
    if (e instanceof ApiError) throw e;
    throw unprocessable();
  }
}

/** Duration as Mastodon writes `length`: `H:MM:SS.cc`. */
function length(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h}:${String(m).padStart(2, "0")}:${s.toFixed(2).padStart(5, "0")}`;
}

/** Duration, channels and bit rate of a PCM WAV file, read from its header (no ffprobe needed). */
export function readWavHeader(b: Uint8Array): AvProbe | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = 12;
  let channels = 0;
  let sampleRate = 0;
  let byteRate = 0;
  while (at + 8 <= b.byteLength) {
    const id = String.fromCharCode(b[at] ?? 0, b[at + 1] ?? 0, b[at + 2] ?? 0, b[at + 3] ?? 0);
    const size = view.getUint32(at + 4, true);
    if (id === "fmt " && at + 24 <= b.byteLength) {
      channels = view.getUint16(at + 10, true);
      sampleRate = view.getUint32(at + 12, true);
      byteRate = view.getUint32(at + 16, true);
    } else if (id === "data") {
      if (!byteRate || !channels) return null;
      const dataSize = Math.min(size, b.byteLength - at - 8);
      return {
        duration: dataSize / byteRate,
        bitrate: byteRate * 8,
        video: null,
        audio: {
          codec: "pcm",
          bitrate: byteRate * 8,
          channels: channels === 1 ? "mono" : channels === 2 ? "stereo" : String(channels),
          sampleRate,
        },
      };
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** Mastodon's `meta` for a video or an audio file. */
export function avMeta(p: AvProbe, small: Dimensions | null): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (p.duration !== null) {
    meta.length = length(p.duration);
    meta.duration = p.duration;
  }
  if (p.video) {
    meta.fps = p.video.fps !== null ? Math.round(p.video.fps) : undefined;
    Object.assign(meta, dims(p.video.width, p.video.height));
  }
  if (p.audio) {
    meta.audio_encode = p.audio.codec ?? undefined;
    meta.audio_bitrate = p.audio.sampleRate !== null ? `${p.audio.sampleRate} Hz` : undefined;
    meta.audio_channels = p.audio.channels ?? undefined;
  }
  meta.original = p.video
    ? {
        width: p.video.width,
        height: p.video.height,
        frame_rate: p.video.frameRate ?? undefined,
        duration: p.duration ?? undefined,
        bitrate: p.bitrate ?? undefined,
      }
    : { duration: p.duration ?? undefined, bitrate: p.bitrate ?? undefined };
  if (small) meta.small = small;
  return JSON.parse(JSON.stringify(meta));
}
