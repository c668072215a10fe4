/**
 * What an upload is, read from its first bytes (magic numbers). The file name and the declared
 * content type are never trusted: a client's word decides neither how a file is processed nor
 * the Content-Type it is served with.
 */

export type MediaKind = "image" | "video" | "audio";

export interface SniffedType {
  kind: MediaKind;
  contentType: string;
  extension: string;
}

const ascii = (b: Uint8Array, at: number, len: number): string => {
  let s = "";
  for (let i = at; i < at + len && i < b.length; i++) s += String.fromCharCode(b[i] ?? 0);
  return s;
};

const startsWith = (b: Uint8Array, bytes: readonly number[], at = 0): boolean =>
  b.length >= at + bytes.length && bytes.every((v, i) => b[at + i] === v);

const image = (contentType: string, extension: string): SniffedType => ({ kind: "image", contentType, extension });
const video = (contentType: string, extension: string): SniffedType => ({ kind: "video", contentType, extension });
const audio = (contentType: string, extension: string): SniffedType => ({ kind: "audio", contentType, extension });

/** ISO base media files (MP4, MOV, M4A, 3GP, HEIF, AVIF) by their `ftyp` box's brands. */
function sniffIsoMedia(b: Uint8Array): SniffedType | undefined {
  const boxSize = ((b[0] ?? 0) << 24) | ((b[1] ?? 0) << 16) | ((b[2] ?? 0) << 8) | (b[3] ?? 0);
  const end = Math.min(b.length, Math.max(boxSize, 16), 256);
  const brands: string[] = [ascii(b, 8, 4)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(b, at, 4));
  const major = brands[0] ?? "";
  if (brands.includes("avif") || brands.includes("avis")) return image("image/avif", "avif");
  if (["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].includes(major)) {
    return image("image/heic", "heic");
  }
  if (major === "M4A " || major === "M4B ") return audio("audio/mp4", "m4a");
  if (major === "qt  ") return video("video/quicktime", "mov");
  if (major.startsWith("3g")) return audio("audio/3gpp", "3gp");
  return video("video/mp4", "mp4");
}

/** Matroska is accepted only as WebM (its DocType names it in the header). */
function sniffEbml(b: Uint8Array): SniffedType | undefined {
  const head = ascii(b, 0, Math.min(b.length, 64));
  return head.includes("webm") ? video("video/webm", "webm") : undefined;
}

function sniffOgg(b: Uint8Array): SniffedType {
  const head = ascii(b, 0, Math.min(b.length, 128));
  return head.includes("theora") ? video("video/ogg", "ogv") : audio("audio/ogg", "ogg");
}

/** MPEG audio frame sync: MP3 (layers I to III) or AAC in ADTS frames (layer bits 00). */
function sniffMpegAudio(b: Uint8Array): SniffedType | undefined {
  if (b[0] !== 0xff || ((b[1] ?? 0) & 0xe0) !== 0xe0) return undefined;
  const layer = ((b[1] ?? 0) >> 1) & 0x03;
  if (layer === 0) return ((b[1] ?? 0) & 0x16) === 0x10 ? audio("audio/aac", "aac") : undefined;
  return audio("audio/mpeg", "mp3");
}

/** The type of an upload, or undefined when it is nothing Gannet accepts. */
export function sniffMediaType(b: Uint8Array): SniffedType | undefined {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return image("image/jpeg", "jpg");
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return image("image/png", "png");
  const head4 = ascii(b, 0, 4);
  if (head4 === "GIF8" && (ascii(b, 4, 2) === "7a" || ascii(b, 4, 2) === "9a")) return image("image/gif", "gif");
  if (head4 === "RIFF") {
    const form = ascii(b, 8, 4);
    if (form === "WEBP") return image("image/webp", "webp");
    if (form === "WAVE") return audio("audio/wav", "wav");
    return undefined;
  }
  if (ascii(b, 4, 4) === "ftyp") return sniffIsoMedia(b);
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return sniffEbml(b);
  if (head4 === "OggS") return sniffOgg(b);
  if (head4 === "fLaC") return audio("audio/flac", "flac");
  if (ascii(b, 0, 3) === "ID3") return audio("audio/mpeg", "mp3");
  if (startsWith(b, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return audio("video/x-ms-asf", "wma");
  return sniffMpegAudio(b);
}
