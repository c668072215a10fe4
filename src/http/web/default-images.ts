import { sharpOf } from "../../lib/sharp.ts";

/**
 * The images of accounts without an avatar or header (and of remote ones not cached yet), at
 * Mastodon's paths. Drawn here as SVG and rendered to PNG once, on first use, so no binary file
 * has to be shipped or built.
 */

/** A head-and-shoulders silhouette on a quiet background, at the size avatars are cropped to. */
const AVATAR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">
  <rect width="400" height="400" fill="#d9e1e8"/>
  <g fill="#9baec8">
    <circle cx="200" cy="152" r="76"/>
    <path d="M44 400 C44 306 112 250 200 250 C288 250 356 306 356 400 Z"/>
  </g>
</svg>`;

/** A plain field, at the size headers are cropped to. */
const HEADER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1500" height="500" viewBox="0 0 1500 500">
  <rect width="1500" height="500" fill="#d9e1e8"/>
</svg>`;

export type DefaultImage = "avatar" | "header";

const rendered = new Map<DefaultImage, Promise<Uint8Array>>();

async function render(svg: string): Promise<Uint8Array> {
  const png = await (await sharpOf(Buffer.from(svg))).png({ palette: true, compressionLevel: 9 }).toBuffer();
  return new Uint8Array(png);
}

/** The PNG bytes of a default image. */
export function defaultImage(kind: DefaultImage): Promise<Uint8Array> {
  let png = rendered.get(kind);
  if (!png) {
    png = render(kind === "avatar" ? AVATAR_SVG : HEADER_SVG);
    // A failed render is tried again on the next request rather than remembered.
    png.catch(() => rendered.delete(kind));
    rendered.set(kind, png);
  }
  return png;
}
