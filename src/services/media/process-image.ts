import { sharpOf } from "../../lib/sharp.ts";

/** Largest accepted image upload (Mastodon's default: 16 MiB). */
export const MAX_IMAGE_BYTES = 16 * 1024 * 1024;
/** Largest accepted image in pixels (Mastodon's default), so a tiny file cannot decode to gigabytes. */
export const MAX_IMAGE_PIXELS = 33_177_600;

export type ProfileImageKind = "avatar" | "header";

/** Avatars and headers are cropped to exactly these sizes, as Mastodon does. */
export const PROFILE_IMAGE_SIZE: Record<ProfileImageKind, { width: number; height: number }> = {
  avatar: { width: 400, height: 400 },
  header: { width: 1500, height: 500 },
};

export interface ProcessedImage {
  data: Uint8Array;
  contentType: string;
  extension: string;
  width: number;
  height: number;
}

/** Why an upload was refused; the caller turns it into a 422. */
export class ImageRejected extends Error {
  readonly reason: "too_large" | "unsupported" | "corrupt";
  constructor(reason: "too_large" | "unsupported" | "corrupt", message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Formats kept as they are; an (animated) GIF keeps its first frame, as a PNG. */
const OUTPUT: Record<string, { format: "jpeg" | "png" | "webp"; contentType: string; extension: string }> = {
  jpeg: { format: "jpeg", contentType: "image/jpeg", extension: "jpg" },
  png: { format: "png", contentType: "image/png", extension: "png" },
  webp: { format: "webp", contentType: "image/webp", extension: "webp" },
  gif: { format: "png", contentType: "image/png", extension: "png" },
};

/**
 * Makes an uploaded avatar or header safe to serve: decodes it (refusing anything that is not a
 * JPEG, PNG, WebP or GIF image), turns it upright, crops it to the profile size and re-encodes it,
 * which drops all metadata (EXIF location, camera data).
 */
export async function processProfileImage(input: Uint8Array, kind: ProfileImageKind): Promise<ProcessedImage> {
  if (input.byteLength > MAX_IMAGE_BYTES) {
    throw new ImageRejected("too_large", "file size must be less than 16 MB");
  }
  let format: string | undefined;
  try {
    format = (await (await sharpOf(input, { limitInputPixels: MAX_IMAGE_PIXELS })).metadata()).format;
  } catch {
    throw new ImageRejected("corrupt", "file could not be read as an image");
  }
  const out = format ? OUTPUT[format] : undefined;
  if (!out) throw new ImageRejected("unsupported", "content type is invalid");
  const { width, height } = PROFILE_IMAGE_SIZE[kind];
  try {
    const pipeline = (await sharpOf(input, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: "error" }))
      .rotate()
      .resize(width, height, { fit: "cover", position: "centre" });
    const encoded =
      out.format === "jpeg"
        ? pipeline.jpeg({ quality: 90 })
        : out.format === "webp"
          ? pipeline.webp({ quality: 90 })
          : pipeline.png();
    const data = await encoded.toBuffer();
    return { data: new Uint8Array(data), contentType: out.contentType, extension: out.extension, width, height };
  } catch {
    throw new ImageRejected("corrupt", "file could not be read as an image");
  }
}
