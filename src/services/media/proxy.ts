import type { AppContext } from "../../context.ts";
import { isVisible } from "../statuses/views.ts";
import { cacheAttachment } from "./remote-cache.ts";

/**
 * The stored file of a remote attachment that the media proxy may hand out: one of a public or
 * unlisted post anyone may see, cached here first when it is not (yet, or any more). Undefined
 * when there is no such attachment or its file cannot be had.
 */
export async function proxiedMediaKey(
  ctx: AppContext,
  id: string,
  variant: "original" | "small",
): Promise<string | undefined> {
  let media = await ctx.repos.media.getById(id);
  if (!media?.remoteUrl || media.statusId === null) return undefined;
  const status = await ctx.repos.statuses.getById(media.statusId);
  if (!status || (status.visibility !== "public" && status.visibility !== "unlisted")) return undefined;
  if (!(await isVisible(ctx, status, undefined))) return undefined;
  if (!media.fileKey) media = await cacheAttachment(ctx, media);
  const key = variant === "small" ? (media?.smallKey ?? media?.fileKey) : media?.fileKey;
  return key || undefined;
}
