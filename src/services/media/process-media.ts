import type { Sharp } from "sharp";
import { encodeBlurhash } from "../../lib/blurhash.ts";
import { ApiError } from "../../lib/errors.ts";
import { MEDIA_LIMITS } from "../../lib/limits.ts";
import { sharpOf } from "../../lib/sharp.ts";
import { type AvProbe, type AvTools, extractFrame, gifToMp4, probe, withTempFile } from "./av-tools.ts";
import type { SniffedType } from "./sniff.ts";

/** The `small` preview fits inside this box, as Mastodon's does. */
const SMALL_SIZE = 640;
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

interface Dimensions {
  width: number;
  height: number;
  size: string;
  aspect: number;
}

const dims = (width: number, height: number): Dimensions => ({
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

/** An animated GIF as `gifv` (an MP4), or null when ffmpeg cannot convert it. */
async function toGifv(bytes: Uint8Array, tools: AvTools): Promise<ProcessedMedia | null> {
  try {
    return await withTempFile(bytes, "gif", async (path) => {
      const mp4 = await gifToMp4(tools, path);
      const small = await previewOf(bytes);
      const probed = tools.ffprobe ? await probe(tools, `${path}.mp4`).catch(() => null) : null;
      const first = await (await sharpOf(bytes, { animated: false })).metadata();
      return {
        type: "gifv" as const,
        original: { data: mp4, contentType: "video/mp4", extension: "mp4" },
        small: small.file,
        blurhash: small.blurhash,
        meta: probed
          ? avMeta(probed, small.dims)
          : { original: dims(first.width ?? 0, first.height ?? 0), small: small.dims },
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

/** Mastodon refuses videos beyond its pixel and frame-rate limits rather than scaling them. */
function checkVideoLimits(video: NonNullable<AvProbe["video"]>): void {
  if (video.width * video.height > MEDIA_LIMITS.videoMatrixLimit) {
    throw new ApiError(422, `Validation failed: ${video.width}x${video.height} videos are not supported`);
  }
  if (video.fps !== null && Math.floor(video.fps) > MEDIA_LIMITS.videoFrameRateLimit) {
    throw new ApiError(422, `Validation failed: ${Math.floor(video.fps)}fps videos are not supported`);
  }
}

/** Mastodon's `meta` for a video or an audio file. */
function avMeta(p: AvProbe, small: Dimensions | null): Record<string, unknown> {
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

/**
 * A video's first frame as its preview, or null when ffmpeg is not installed. A video whose
 * container ffprobe read but whose first frame ffmpeg cannot decode is corrupt: refused (422).
 */
export async function videoPreview(
  bytes: Uint8Array,
  sniffed: SniffedType,
  tools: AvTools,
): Promise<Awaited<ReturnType<typeof previewOf>> | null> {
  if (!tools.ffmpeg) return null;
  try {
    return await withTempFile(bytes, sniffed.extension, async (path) => previewOf(await extractFrame(tools, path)));
  } catch {
    throw unprocessable();
  }
}

/**
 * Video and audio: kept as uploaded. With ffprobe on the PATH, their duration, size and frame
 * rate are read (an unreadable file or one beyond the limits is refused) and, with `preview`
 * and ffmpeg, a video's first frame becomes its preview. Without ffprobe, only what the
 * container says cheaply (a WAV header) is known.
 */
export async function processAv(
  bytes: Uint8Array,
  sniffed: SniffedType,
  tools: AvTools,
  opts: { preview: boolean } = { preview: true },
): Promise<Omit<ProcessedMedia, "original">> {
  if (!tools.ffprobe) {
    const wav = sniffed.extension === "wav" ? readWavHeader(bytes) : null;
    return {
      type: sniffed.kind === "image" ? "image" : sniffed.kind,
      small: null,
      blurhash: null,
      meta: wav ? avMeta(wav, null) : {},
    };
  }
  const probed = await withTempFile(bytes, sniffed.extension, async (path) => {
    try {
      return await probe(tools, path);
    } catch {
      throw unprocessable();
    }
  });
  if (!probed.video && !probed.audio) throw unprocessable();
  if (!probed.video) return { type: "audio", small: null, blurhash: null, meta: avMeta(probed, null) };
  checkVideoLimits(probed.video);
  const small = opts.preview ? await videoPreview(bytes, sniffed, tools) : null;
  return {
    type: "video",
    small: small?.file ?? null,
    blurhash: small?.blurhash ?? null,
    meta: avMeta(probed, small?.dims ?? null),
  };
}
