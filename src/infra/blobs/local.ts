import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import type { BlobStore } from "./interface.ts";

const TYPES: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  ogv: "video/ogg",
  mov: "video/quicktime",
  wav: "audio/wav",
  m4a: "audio/mp4",
  aac: "audio/aac",
  flac: "audio/flac",
  "3gp": "audio/3gpp",
  wma: "video/x-ms-asf",
  heic: "image/heic",
};

/** Files under `DATA_DIR/media`, served by Gannet at `/system/<key>`. */
export class LocalBlobStore implements BlobStore {
  readonly #root: string;
  readonly #baseUrl: string;

  constructor(root: string, baseUrl: string) {
    this.#root = root;
    this.#baseUrl = baseUrl;
  }

  #path(key: string): string {
    const p = normalize(join(this.#root, key));
    if (!p.startsWith(this.#root + sep) || key.includes("\0")) throw new Error("bad blob key");
    return p;
  }

  async put(key: string, data: Uint8Array): Promise<void> {
    const p = this.#path(key);
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, data);
  }

  async get(key: string): Promise<{ data: Uint8Array; contentType: string } | undefined> {
    let p: string;
    try {
      p = this.#path(key);
    } catch {
      return undefined;
    }
    try {
      const data = await readFile(p);
      const ext = key.split(".").pop()?.toLowerCase() ?? "";
      return { data, contentType: TYPES[ext] ?? "application/octet-stream" };
    } catch {
      return undefined;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  url(key: string): string {
    return `${this.#baseUrl}/system/${key}`;
  }
}
