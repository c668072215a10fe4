import type { Context, Hono } from "hono";
import { ApiError } from "../../../../lib/errors.ts";
import { MEDIA_LIMITS } from "../../../../lib/limits.ts";
import { serializeMediaAttachment } from "../../../../serializers/media-attachment.ts";
import {
  createMediaAttachment,
  deleteOwnMediaAttachment,
  findOwnUnattached,
  type MediaAttachment,
  type MediaInput,
  updateMediaAttachment,
} from "../../../../services/media/media-attachments.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { throttle } from "../../../middleware/rate-limit.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";

/** Mastodon's throttle_api_media: 30 uploads per 30 minutes per user, both API versions together. */
const uploadThrottle = throttle("media", 30, 30 * 60 * 1000, "user");

/** A `data:` URI's bytes (Mastodon accepts `file` as one), or undefined when it is not one. */
export function decodeDataUri(value: string): Uint8Array | undefined {
  const m = /^data:([^,]*?),(.*)$/s.exec(value.trim());
  if (!m) return undefined;
  const base64 = (m[1] ?? "").toLowerCase().endsWith(";base64");
  const payload = m[2] ?? "";
  if (base64) return new Uint8Array(Buffer.from(payload.replace(/\s+/g, ""), "base64"));
  try {
    return new TextEncoder().encode(decodeURIComponent(payload));
  } catch {
    return undefined;
  }
}

async function fileParam(value: unknown, name: string, dataUri: boolean): Promise<Uint8Array | undefined> {
  if (value === undefined || value === null || value === "") return undefined;
  if (value instanceof File) return new Uint8Array(await value.arrayBuffer());
  if (dataUri && typeof value === "string") {
    const bytes = decodeDataUri(value);
    if (bytes) return bytes;
  }
  const field = name === "file" ? "File" : "Thumbnail";
  throw new ApiError(422, `Validation failed: ${field} content type is invalid`);
}

function descriptionParam(value: unknown): string | null | undefined {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value !== "string" && typeof value !== "number") {
    throw new ApiError(422, "Validation failed: Description is invalid");
  }
  const text = String(value);
  if ([...text].length > MEDIA_LIMITS.descriptionLimit) {
    throw new ApiError(
      422,
      `Validation failed: Description is too long (maximum is ${MEDIA_LIMITS.descriptionLimit} characters)`,
    );
  }
  return text;
}

/** `focus` as "x,y" with both in -1..1 (an empty value clears it). */
function focusParam(value: unknown): { x: number; y: number } | null | undefined {
  if (value === undefined) return undefined;
  if (value === null || value === "") return null;
  const parts = Array.isArray(value) ? value.map(String) : String(value).split(",");
  const [x, y] = parts.map((p) => Number(p.trim()));
  if (parts.length !== 2 || x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) {
    throw new ApiError(422, "Validation failed: Focus must be two numbers, x,y");
  }
  if (x < -1 || x > 1 || y < -1 || y > 1) {
    throw new ApiError(422, "Validation failed: Focus must be between -1.0 and 1.0");
  }
  return { x, y };
}

async function mediaInput(c: Context<HonoEnv>): Promise<MediaInput> {
  const params = await readParams(c);
  return {
    file: await fileParam(params.file, "file", true),
    thumbnail: await fileParam(params.thumbnail, "thumbnail", true),
    description: descriptionParam(params.description),
    focus: focusParam(params.focus),
  };
}

/** 206 while processing, 422 when processing failed, as Mastodon's media controller. */
function answer(c: Context<HonoEnv>, media: MediaAttachment) {
  if (media.processing === "failed") {
    throw new ApiError(422, "Error processing thumbnail for uploaded media");
  }
  const body = serializeMediaAttachment(media, (key) => c.env.ctx.blobs.url(key));
  return c.json(body, media.processing === "complete" ? 200 : 206);
}

/** 1.11 Media: uploads, processing state, alt text and focus, deletion of unattached uploads. */
export function mediaRoutes(app: Hono<HonoEnv>): void {
  app.post("/api/v1/media", requireUser("write:media"), uploadThrottle, async (c) => {
    const ctx = c.env.ctx;
    const media = await createMediaAttachment(ctx, currentAccount(c), await mediaInput(c), { delayAv: false });
    return c.json(serializeMediaAttachment(media, (key) => ctx.blobs.url(key)));
  });

  // Images are processed before answering (200); video and audio answer 202 with `url: null`
  // and are polled through GET /api/v1/media/:id.
  app.post("/api/v2/media", requireUser("write:media"), uploadThrottle, async (c) => {
    const ctx = c.env.ctx;
    const media = await createMediaAttachment(ctx, currentAccount(c), await mediaInput(c), { delayAv: true });
    return c.json(
      serializeMediaAttachment(media, (key) => ctx.blobs.url(key)),
      media.processing === "complete" ? 200 : 202,
    );
  });

  app.get("/api/v1/media/:id{[0-9]+}", requireUser("write:media"), async (c) => {
    return answer(c, await findOwnUnattached(c.env.ctx, currentAccount(c), c.req.param("id")));
  });

  app.put("/api/v1/media/:id{[0-9]+}", requireUser("write:media"), async (c) => {
    const ctx = c.env.ctx;
    const media = await findOwnUnattached(ctx, currentAccount(c), c.req.param("id"));
    const input = await mediaInput(c);
    if (media.processing === "failed") return answer(c, media);
    return answer(c, await updateMediaAttachment(ctx, media, { ...input, file: undefined }));
  });

  app.delete("/api/v1/media/:id{[0-9]+}", requireUser("write:media"), async (c) => {
    await deleteOwnMediaAttachment(c.env.ctx, currentAccount(c), c.req.param("id"));
    return c.json({});
  });
}
