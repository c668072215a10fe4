import { type FileHandle, mkdir, open, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, normalize, sep } from "node:path";
import type { BlobStore } from "./interface.ts";

/** Where the local blob store keeps uploaded and cached files: `DATA_DIR/media`. */
export const localMediaDir = (dataDir: string): string => join(dataDir, "media");

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

/** Bytes read at a time when a file is streamed. */
const CHUNK = 256 * 1024;

/** The Content-Type a file is served with, from the extension Gannet gave its key. */
function typeOf(key: string): string {
  const ext = key.split(".").pop()?.toLowerCase() ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}

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
      return { data: await readFile(p), contentType: typeOf(key) };
    } catch {
      return undefined;
    }
  }

  async stat(key: string): Promise<{ size: number; contentType: string } | undefined> {
    let p: string;
    try {
      p = this.#path(key);
    } catch {
      return undefined;
    }
    try {
      const st = await stat(p);
      return st.isFile() ? { size: st.size, contentType: typeOf(key) } : undefined;
    } catch {
      return undefined;
    }
  }

  stream(key: string, first: number, last: number): ReadableStream<Uint8Array> {
    const path = this.#path(key);
    let file: FileHandle | undefined;
    let at = first;
    const done = async () => {
      const f = file;
      file = undefined;
      await f?.close();
    };
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            file ??= await open(path, "r");
            const want = Math.min(CHUNK, last - at + 1);
            const chunk = new Uint8Array(Math.max(want, 0));
            const { bytesRead } = want > 0 ? await file.read(chunk, 0, want, at) : { bytesRead: 0 };
            if (bytesRead === 0) {
              await done();
              controller.close();
              return;
            }
            at += bytesRead;
            controller.enqueue(chunk.subarray(0, bytesRead));
          } catch (e) {
            await done().catch(() => {});
            controller.error(e);
          }
        },
        cancel: done,
      },
      // Nothing is read (nor the file opened) before the first read: a HEAD answer opens nothing.
      { highWaterMark: 0 },
    );
  }

  async delete(key: string): Promise<void> {
    await rm(this.#path(key), { force: true });
  }

  url(key: string): string {
    return `${this.#baseUrl}/system/${key}`;
  }
}
