import { encodeBlurhash } from "../../lib/blurhash.ts";
import { sharpOf } from "../../lib/sharp.ts";

/** Paths of the default server banner and icons (served by the instance routes). */
export const BANNER_PATH = "/instance/banner.png";
export const BANNER_2X_PATH = "/instance/banner@2x.png";
export const ICON_SIZES = [36, 48, 72, 96, 144, 192, 256, 512] as const;
export const iconPath = (size: number): string => `/instance/icon-${size}.png`;

const BANNER_WIDTH = 1200;
const BANNER_HEIGHT = 630;

/** A gannet over the sea at dawn: gradient sky, sun, two wave bands and the bird's outline. */
function bannerSvg(scale: number): string {
  const w = BANNER_WIDTH * scale;
  const h = BANNER_HEIGHT * scale;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 1200 630">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
<stop offset="0" stop-color="#1d3557"/><stop offset="0.6" stop-color="#457b9d"/><stop offset="1" stop-color="#a8dadc"/>
</linearGradient></defs>
<rect width="1200" height="630" fill="url(#sky)"/>
<circle cx="900" cy="420" r="120" fill="#f4d35e" opacity="0.85"/>
<path d="M0 470 Q150 430 300 470 T600 470 T900 470 T1200 470 V630 H0 Z" fill="#1d5c7a"/>
<path d="M0 530 Q150 495 300 530 T600 530 T900 530 T1200 530 V630 H0 Z" fill="#12405a"/>
<path d="M330 250 Q430 170 520 235 Q560 215 600 225 Q640 190 760 165 Q660 230 625 255 Q560 265 520 260 Q440 215 330 250 Z" fill="#f1faee"/>
<path d="M600 225 L640 222 L610 236 Z" fill="#f4a261"/>
</svg>`;
}

function iconSvg(size: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 512 512">
<rect width="512" height="512" rx="96" fill="#1d3557"/>
<path d="M0 380 Q128 340 256 380 T512 380 V512 H0 Z" fill="#457b9d"/>
<path d="M70 250 Q170 150 250 220 Q290 200 330 210 Q370 170 460 140 Q390 220 355 245 Q290 255 250 250 Q170 200 70 250 Z" fill="#f1faee"/>
<path d="M330 210 L372 206 L340 222 Z" fill="#f4a261"/>
</svg>`;
}

export interface DefaultImages {
  /** The default banner, 1200×630 (`scale` 1) or 2400×1260 (`scale` 2). */
  banner(scale: 1 | 2): Promise<Buffer>;
  bannerBlurhash(): Promise<string>;
  /** The default app icon at one of ICON_SIZES. */
  icon(size: number): Promise<Buffer>;
}

/**
 * Renders the default images on first use and keeps them for the life of the app (the cache
 * lives in this closure, one per app).
 */
export function createDefaultImages(): DefaultImages {
  const banners = new Map<number, Promise<Buffer>>();
  const icons = new Map<number, Promise<Buffer>>();
  let blurhash: Promise<string> | undefined;
  const remember = <T>(map: Map<number, Promise<T>>, key: number, make: () => Promise<T>): Promise<T> => {
    let p = map.get(key);
    if (!p) {
      p = make();
      map.set(key, p);
      p.catch(() => map.delete(key));
    }
    return p;
  };
  return {
    banner: (scale) =>
      remember(banners, scale, async () => (await sharpOf(Buffer.from(bannerSvg(scale)))).png().toBuffer()),
    bannerBlurhash() {
      blurhash ??= sharpOf(Buffer.from(bannerSvg(1)))
        .then((image) => image.resize(32, 17, { fit: "fill" }))
        .then((image) => image.ensureAlpha().raw().toBuffer({ resolveWithObject: true }))
        .then(({ data, info }) => encodeBlurhash(data, info.width, info.height, 4, 3));
      return blurhash;
    },
    icon(size) {
      if (!(ICON_SIZES as readonly number[]).includes(size)) throw new RangeError(`no icon of size ${size}`);
      return remember(icons, size, async () => (await sharpOf(Buffer.from(iconSvg(size)))).png().toBuffer());
    },
  };
}
