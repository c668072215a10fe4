/**
 * A BlurHash encoder (https://blurha.sh): a short string a client paints as a blurred preview
 * while the image loads: the server banner and media attachments.
 */

const BASE83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";

function base83(value: number, length: number): string {
  let out = "";
  for (let i = 1; i <= length; i++) {
    const digit = Math.floor(value / 83 ** (length - i)) % 83;
    out += BASE83[digit];
  }
  return out;
}

function srgbToLinear(v: number): number {
  const x = v / 255;
  return x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
}

function linearToSrgb(v: number): number {
  const x = Math.max(0, Math.min(1, v));
  return x <= 0.0031308 ? Math.trunc(x * 12.92 * 255 + 0.5) : Math.trunc((1.055 * x ** (1 / 2.4) - 0.055) * 255 + 0.5);
}

const signPow = (v: number, exp: number): number => Math.sign(v) * Math.abs(v) ** exp;

/**
 * Encodes RGBA pixels (`width * height * 4` bytes, row by row) with `cx × cy` components.
 * Cost grows with pixels × components: pass a small thumbnail (32 px wide is plenty).
 */
export function encodeBlurhash(pixels: Uint8Array, width: number, height: number, cx = 4, cy = 3): string {
  if (cx < 1 || cx > 9 || cy < 1 || cy > 9) throw new RangeError("blurhash components must be 1 to 9");
  if (pixels.length < width * height * 4) throw new RangeError("pixel buffer smaller than width × height × 4");
  const factors: [number, number, number][] = [];
  for (let j = 0; j < cy; j++) {
    for (let i = 0; i < cx; i++) {
      const norm = i === 0 && j === 0 ? 1 : 2;
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = 0; y < height; y++) {
        const by = Math.cos((Math.PI * j * y) / height);
        for (let x = 0; x < width; x++) {
          const basis = Math.cos((Math.PI * i * x) / width) * by;
          const p = 4 * (y * width + x);
          r += basis * srgbToLinear(pixels[p]);
          g += basis * srgbToLinear(pixels[p + 1]);
          b += basis * srgbToLinear(pixels[p + 2]);
        }
      }
      const scale = norm / (width * height);
      factors.push([r * scale, g * scale, b * scale]);
    }
  }
  const [dc, ...ac] = factors;
  let hash = base83(cx - 1 + (cy - 1) * 9, 1);
  let maxValue = 1;
  if (ac.length > 0) {
    const actualMax = Math.max(...ac.flatMap((f) => f.map(Math.abs)));
    const quantisedMax = Math.max(0, Math.min(82, Math.floor(actualMax * 166 - 0.5)));
    maxValue = (quantisedMax + 1) / 166;
    hash += base83(quantisedMax, 1);
  } else {
    hash += base83(0, 1);
  }
  hash += base83((linearToSrgb(dc[0]) << 16) + (linearToSrgb(dc[1]) << 8) + linearToSrgb(dc[2]), 4);
  for (const f of ac) {
    const q = f.map((v) => Math.max(0, Math.min(18, Math.floor(signPow(v / maxValue, 0.5) * 9 + 9.5))));
    hash += base83(q[0] * 19 * 19 + q[1] * 19 + q[2], 2);
  }
  return hash;
}
