import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { TestServer } from "./server.ts";

const sleep = (ms: number) => new Promise((res) => setTimeout(res, ms));

/**
 * The files stored for one attachment, once the background job is through with them: it marks
 * the upload complete before it deletes the `upload.*` file it replaced, so that may take a moment.
 */
export async function mediaFilesOf(s: TestServer, id: string): Promise<string[]> {
  const list = () =>
    readdir(join(s.ctx.config.dataDir, "media", "media_attachments", "files", id)).catch(() => [] as string[]);
  let files = await list();
  for (let i = 0; i < 100 && files.some((f) => f.startsWith("upload.")); i++) {
    await sleep(20);
    files = await list();
  }
  return files;
}

/** `GET /api/v1/media/:id` until it stops answering 206 (processing), or `tries` × `everyMs` pass. */
export async function pollMedia(s: TestServer, token: string, id: string, tries = 100, everyMs = 20) {
  let r = await s.request(`/api/v1/media/${id}`, { token });
  for (let i = 0; i < tries && r.status === 206; i++) {
    await sleep(everyMs);
    r = await s.request(`/api/v1/media/${id}`, { token });
  }
  return r;
}
