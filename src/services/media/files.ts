import type { AppContext } from "../../context.ts";
import type { EncodedFile } from "./process-media.ts";

/** Where an attachment's files live in the blob store. */
export const mediaFolder = (id: string): string => `media_attachments/files/${id}`;

/** Stores files, deleting those already stored when one fails, so a failure leaves nothing. */
export async function putAll(ctx: AppContext, files: [string, EncodedFile][]): Promise<void> {
  const done: string[] = [];
  try {
    for (const [key, f] of files) {
      await ctx.blobs.put(key, f.data, f.contentType);
      done.push(key);
    }
  } catch (e) {
    await deleteKeys(ctx, done);
    throw e;
  }
}

/** Deletes stored files, skipping empty keys; a failure leaves a stray file, never an error. */
export async function deleteKeys(ctx: AppContext, keys: (string | null | undefined)[]): Promise<void> {
  for (const key of new Set(keys)) {
    if (!key) continue;
    try {
      await ctx.blobs.delete(key);
    } catch {
      // A stray file is left for an operator; the row is what clients see.
    }
  }
}
