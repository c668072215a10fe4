import { ApiError } from "../../lib/errors.ts";
import { MEDIA_LIMITS } from "../../lib/limits.ts";
import {
  type AvProbe,
  type AvTools,
  encodePlan,
  extractFrame,
  type Mp4Plan,
  probe,
  readOutput,
  toMp4,
  withTempFile,
} from "./av-tools.ts";
import {
  avMeta,
  type EncodedFile,
  MAX_VIDEO_FRAMES,
  type ProcessedMedia,
  previewOf,
  readWavHeader,
  unprocessable,
} from "./process-media.ts";
import type { SniffedType } from "./sniff.ts";

/** Mastodon refuses videos beyond its pixel and frame-rate limits rather than scaling them. */
function checkVideoLimits(video: NonNullable<AvProbe["video"]>): void {
  if (video.width * video.height > MEDIA_LIMITS.videoMatrixLimit) {
    throw new ApiError(422, `Validation failed: ${video.width}x${video.height} videos are not supported`);
  }
  if (video.fps !== null && Math.floor(video.fps) > MEDIA_LIMITS.videoFrameRateLimit) {
    throw new ApiError(422, `Validation failed: ${Math.floor(video.fps)}fps videos are not supported`);
  }
}

/** WebM and QuickTime are always encoded again, as in Mastodon: browsers play neither everywhere. */
const ALWAYS_ENCODED = new Set(["video/webm", "video/quicktime"]);

/**
 * Copy or encode (Mastodon's passthrough rule): H.264 in 4:2:0 colour with AAC audio or none is
 * copied; anything else is encoded again.
 */
export function mp4Plan(sniffed: SniffedType, probed: AvProbe & { video: NonNullable<AvProbe["video"]> }): Mp4Plan {
  const v = probed.video;
  const copyable =
    !ALWAYS_ENCODED.has(sniffed.contentType) &&
    v.codec === "h264" &&
    v.pixelFormat === "yuv420p" &&
    (probed.audio === null || probed.audio.codec === "aac");
  if (copyable) return { kind: "copy" };
  return encodePlan(v, probed.duration, {
    sizeLimit: MEDIA_LIMITS.videoSizeLimit,
    frameRateLimit: MEDIA_LIMITS.videoFrameRateLimit,
    maxFrames: MAX_VIDEO_FRAMES,
  });
}

const keep = (bytes: Uint8Array, sniffed: SniffedType): EncodedFile => ({
  data: bytes,
  contentType: sniffed.contentType,
  extension: sniffed.extension,
});

/**
 * Video and audio. Without ffprobe they are kept as uploaded, knowing only what a WAV header
 * says. With it they are probed: a file it cannot read, or a video beyond the limits, is refused
 * (422). With `full` (a v1 upload, or the background job of a v2 one) and ffmpeg, a video
 * becomes an MP4 by Mastodon's rules (`mp4Plan`), its first frame the preview, and, as in
 * Mastodon, a video without sound becomes `gifv`; audio is kept as uploaded.
 */
export async function processAv(
  bytes: Uint8Array,
  sniffed: SniffedType,
  tools: AvTools,
  opts: { full: boolean },
): Promise<ProcessedMedia> {
  const original = keep(bytes, sniffed);
  if (!tools.ffprobe) {
    const wav = sniffed.extension === "wav" ? readWavHeader(bytes) : null;
    return {
      type: sniffed.kind === "image" ? "image" : sniffed.kind,
      original,
      small: null,
      blurhash: null,
      meta: wav ? avMeta(wav, null) : {},
    };
  }
  return withTempFile(bytes, sniffed.extension, async (path) => {
    let probed: AvProbe;
    try {
      probed = await probe(tools, path);
    } catch {
      throw unprocessable();
    }
    const video = probed.video;
    if (!video && !probed.audio) throw unprocessable();
    if (!video) return { type: "audio", original, small: null, blurhash: null, meta: avMeta(probed, null) };
    checkVideoLimits(video);
    if (!opts.full || !tools.ffmpeg) {
      return { type: "video", original, small: null, blurhash: null, meta: avMeta(probed, null) };
    }
    const out = `${path}.out.mp4`;
    try {
      await toMp4(tools, path, out, mp4Plan(sniffed, { ...probed, video }));
    } catch {
      throw unprocessable();
    }
    let small: Awaited<ReturnType<typeof previewOf>>;
    try {
      small = await previewOf(await extractFrame(tools, out));
    } catch {
      throw unprocessable();
    }
    const converted = await probe(tools, out).catch(() => probed);
    return {
      type: probed.audio ? "video" : "gifv",
      original: { data: await readOutput(out), contentType: "video/mp4", extension: "mp4" },
      small: small.file,
      blurhash: small.blurhash,
      meta: avMeta(converted.video ? converted : probed, small.dims),
    };
  });
}
