import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join } from "node:path";
import type { AppContext } from "../../context.ts";
import { ApiError } from "../../lib/errors.ts";
import { isShortcode } from "../../lib/text/shortcodes.ts";
import { addCustomEmoji, deleteCustomEmoji, EMOJI_MAX_BYTES } from "../../services/custom-emojis/manage.ts";
import type { Output } from "../output.ts";
import type { Command } from "../parse-command.ts";
import { CommandError } from "../usage.ts";

const IMPORTED_EXTENSIONS = new Set([".png", ".gif", ".webp"]);

const yesNo = (b: boolean) => (b ? "yes" : "no");

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The file's bytes; a file too large to be an emoji is refused before it is read. */
async function readImage(file: string): Promise<Uint8Array> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CommandError(`${file} is not a file`);
    // The service gives the same answer; this only spares reading a large file first.
    if (info.size > EMOJI_MAX_BYTES) throw new CommandError(`${file}: image file size must be less than 256 KB`);
    return new Uint8Array(await readFile(file));
  } catch (e) {
    if (e instanceof CommandError) throw e;
    throw new CommandError(`cannot read ${file}: ${messageOf(e)}`);
  }
}

export async function emojiAdd(ctx: AppContext, cmd: Extract<Command, { kind: "emoji-add" }>, io: Output) {
  const data = await readImage(cmd.file);
  try {
    await addCustomEmoji(ctx, {
      shortcode: cmd.shortcode,
      data,
      category: cmd.category,
      visibleInPicker: !cmd.unlisted,
    });
  } catch (e) {
    throw e instanceof ApiError ? new CommandError(`${cmd.file}: ${e.message}`) : e;
  }
  await io.out("OK");
}

export async function emojiImport(ctx: AppContext, cmd: Extract<Command, { kind: "emoji-import" }>, io: Output) {
  let names: string[];
  try {
    const entries = await readdir(cmd.dir, { withFileTypes: true });
    names = entries
      .filter((e) => e.isFile() && IMPORTED_EXTENSIONS.has(extname(e.name).toLowerCase()))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    throw new CommandError(`cannot read the directory ${cmd.dir}: ${messageOf(e)}`);
  }
  let imported = 0;
  let skipped = 0;
  let failed = 0;
  for (const name of names) {
    const shortcode = name.slice(0, -extname(name).length);
    if (!isShortcode(shortcode)) {
      skipped++;
      await io.err(`skipped ${name}: "${shortcode}" is not a shortcode (two or more letters, digits or _)`);
      continue;
    }
    if (await ctx.repos.customEmojis.getLocal(shortcode)) {
      skipped++;
      await io.err(`skipped ${name}: :${shortcode}: already exists`);
      continue;
    }
    try {
      const data = await readImage(join(cmd.dir, name));
      await addCustomEmoji(ctx, { shortcode, data, category: cmd.category, visibleInPicker: !cmd.unlisted });
      imported++;
    } catch (e) {
      if (!(e instanceof ApiError || e instanceof CommandError)) throw e;
      failed++;
      await io.err(`failed ${name}: ${e.message}`);
    }
  }
  await io.out(`imported ${imported}, skipped ${skipped}, failed ${failed}`);
  if (failed > 0) throw new CommandError(`${failed} file${failed === 1 ? "" : "s"} could not be imported`);
}

export async function emojiList(ctx: AppContext, io: Output): Promise<void> {
  await io.out(["shortcode", "category", "listed", "disabled", "content type", "size", "url"].join("\t"));
  for (const e of await ctx.repos.customEmojis.listLocal()) {
    await io.out(
      [
        e.shortcode,
        e.category ?? "",
        yesNo(e.visibleInPicker),
        yesNo(e.disabled),
        e.imageContentType ?? "",
        String(e.imageFileSize ?? ""),
        e.imageKey ? ctx.blobs.url(e.imageKey) : (e.imageRemoteUrl ?? ""),
      ].join("\t"),
    );
  }
}

export async function emojiDelete(ctx: AppContext, cmd: Extract<Command, { kind: "emoji-delete" }>, io: Output) {
  if (!(await deleteCustomEmoji(ctx, cmd.shortcode))) throw new CommandError(`no custom emoji :${cmd.shortcode}:`);
  await io.out("OK");
}
