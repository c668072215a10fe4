import assert from "node:assert/strict";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import type { AppContext } from "../../src/context.ts";
import { createInstance, gannet, gannetOk, type Instance } from "./harness.ts";

const image = (color: string, size = 16) =>
  sharp({ create: { width: size, height: size, channels: 4, background: color } });

/** Every file under DATA_DIR/media/custom_emojis (relative paths), or [] when there is none. */
async function emojiFiles(inst: Instance): Promise<string[]> {
  try {
    const entries = await readdir(join(inst.dataDir, "media", "custom_emojis"), {
      recursive: true,
      withFileTypes: true,
    });
    return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

const rows = (stdout: string) =>
  stdout
    .trimEnd()
    .split("\n")
    .map((l) => l.split("\t"));

/** `gannet emoji ...` run as a real process; the database and data directory are then read back. */
describe("gannet emoji", () => {
  let inst: Instance;
  let ctx: AppContext;
  let files: string;

  before(async () => {
    inst = await createInstance();
    await gannetOk(inst, "emoji", "list"); // creates the schema before this process opens it
    ctx = await inst.openContext();
    files = join(inst.dir, "files");
    await mkdir(files);
    await writeFile(join(files, "blobcat.png"), await image("#3366ff").png().toBuffer());
    await writeFile(join(files, "dance.gif"), await image("#ff0000").gif().toBuffer());
    await writeFile(join(files, "leaf.webp"), await image("#00ff00").webp().toBuffer());
    await writeFile(join(files, "photo.jpg"), await image("#000000").jpeg().toBuffer());
    await writeFile(join(files, "notes.txt"), "not an image");
    await writeFile(join(files, "fake.png"), "not an image either");
    await writeFile(join(files, "big.png"), new Uint8Array(300 * 1024));
  });
  after(async () => {
    await ctx.close();
    await inst.cleanup();
  });

  function assertFailure(r: { code: number; stdout: string; stderr: string }, message: RegExp, what: string) {
    assert.equal(r.code, 1, `${what}: ${r.stderr}`);
    assert.equal(r.stdout, "", what);
    assert.match(r.stderr, /^gannet: /, what);
    assert.match(r.stderr, message, what);
  }

  it("adds an emoji from a file, with a category or unlisted", async () => {
    assert.equal(
      await gannetOk(inst, "emoji", "add", "blobcat", join(files, "blobcat.png"), "--category", "Blobs"),
      "OK\n",
    );
    assert.equal(await gannetOk(inst, "emoji", "add", "Blobcat", join(files, "dance.gif"), "--unlisted"), "OK\n");
    const blobcat = await ctx.repos.customEmojis.getLocal("blobcat");
    assert.ok(blobcat);
    assert.equal(blobcat.category, "Blobs");
    assert.equal(blobcat.visibleInPicker, true);
    assert.equal(blobcat.imageContentType, "image/png");
    const other = await ctx.repos.customEmojis.getLocal("Blobcat");
    assert.ok(other, "shortcodes are case-sensitive");
    assert.equal(other.visibleInPicker, false);
    assert.equal(other.imageContentType, "image/gif");
    assert.ok(other.imageKey?.endsWith(".gif"));
    assert.ok(other.staticKey?.endsWith(".png"));
    // Original and static image of each, in the blob store.
    assert.equal((await emojiFiles(inst)).length, 4);
    const stored = other.staticKey ? await ctx.blobs.get(other.staticKey) : undefined;
    assert.ok(stored);
    assert.equal((await sharp(stored.data).metadata()).format, "png");

    const listing = rows(await gannetOk(inst, "emoji", "list"));
    assert.deepEqual(listing[0], ["shortcode", "category", "listed", "disabled", "content type", "size", "url"]);
    const line = listing.find((r) => r[0] === "blobcat");
    assert.deepEqual(line?.slice(0, 5), ["blobcat", "Blobs", "yes", "no", "image/png"]);
    assert.match(line?.[6] ?? "", /\/system\/custom_emojis\/images\/\d+\/original\/[\w-]+\.png$/);
    assert.deepEqual(listing.find((r) => r[0] === "Blobcat")?.slice(0, 5), ["Blobcat", "", "no", "no", "image/gif"]);
  });

  it("refuses bad shortcodes and files, leaving nothing behind", async () => {
    const before = (await ctx.repos.customEmojis.listLocal()).length;
    const filesBefore = await emojiFiles(inst);
    const failures: [string[], RegExp][] = [
      [["blobcat", join(files, "blobcat.png")], /already been taken/],
      [["photo", join(files, "photo.jpg")], /content type is invalid/],
      [["notes", join(files, "notes.txt")], /content type is invalid/],
      [["fake", join(files, "fake.png")], /content type is invalid/],
      [["big", join(files, "big.png")], /256 KB/],
      [["missing", join(files, "nope.png")], /cannot read .*nope\.png/],
      [["dir", files], /is not a file/],
    ];
    for (const [args, message] of failures)
      assertFailure(await gannet(inst, "emoji", "add", ...args), message, args[0]);
    // Bad arguments: exit 2 with the usage.
    for (const args of [["a", join(files, "blobcat.png")], ["blob-cat", join(files, "blobcat.png")], ["blobcat"], []]) {
      const r = await gannet(inst, "emoji", "add", ...args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /Usage: gannet emoji add/);
    }
    assert.equal((await ctx.repos.customEmojis.listLocal()).length, before);
    assert.deepEqual(await emojiFiles(inst), filesBefore);
  });

  it("imports a directory: good images in, bad names and taken shortcodes skipped, bad files failed", async () => {
    const dir = join(inst.dir, "pack");
    await mkdir(dir);
    await writeFile(join(dir, "wave.png"), await image("#123456").png().toBuffer());
    await writeFile(join(dir, "spin.gif"), await image("#654321").gif().toBuffer());
    await writeFile(join(dir, "leaf.WEBP"), await image("#00ff00").webp().toBuffer());
    await writeFile(join(dir, "blobcat.png"), await image("#000000").png().toBuffer()); // taken
    await writeFile(join(dir, "x.png"), await image("#000000").png().toBuffer()); // too short
    await writeFile(join(dir, "bad name.png"), await image("#000000").png().toBuffer());
    await writeFile(join(dir, "broken.png"), "not a png");
    await writeFile(join(dir, "readme.txt"), "ignored");
    await writeFile(join(dir, "photo.jpg"), await image("#000000").jpeg().toBuffer()); // ignored
    await mkdir(join(dir, "sub.png"));
    const filesBefore = (await emojiFiles(inst)).length;

    const r = await gannet(inst, "emoji", "import", dir, "--category", "Pack");
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout, "imported 3, skipped 3, failed 1\n");
    assert.match(r.stderr, /skipped blobcat\.png: :blobcat: already exists/);
    assert.match(r.stderr, /skipped x\.png/);
    assert.match(r.stderr, /skipped bad name\.png/);
    assert.match(r.stderr, /failed broken\.png: .*content type is invalid/);
    assert.match(r.stderr, /gannet: 1 file could not be imported/);
    for (const shortcode of ["wave", "spin", "leaf"]) {
      const e = await ctx.repos.customEmojis.getLocal(shortcode);
      assert.ok(e, shortcode);
      assert.equal(e.category, "Pack");
    }
    assert.equal(await ctx.repos.customEmojis.getLocal("broken"), undefined);
    // The taken shortcode kept its own image.
    assert.equal((await ctx.repos.customEmojis.getLocal("blobcat"))?.category, "Blobs");
    assert.equal((await emojiFiles(inst)).length, filesBefore + 6);

    // Run again: the imported ones are skipped now, the broken file fails again.
    const again = await gannet(inst, "emoji", "import", dir);
    assert.equal(again.code, 1);
    assert.equal(again.stdout, "imported 0, skipped 6, failed 1\n");
    const clean = join(inst.dir, "clean");
    await mkdir(clean);
    await writeFile(join(clean, "sun.png"), await image("#ffff00").png().toBuffer());
    assert.equal(await gannetOk(inst, "emoji", "import", clean, "--unlisted"), "imported 1, skipped 0, failed 0\n");
    assert.equal((await ctx.repos.customEmojis.getLocal("sun"))?.visibleInPicker, false);
    assertFailure(await gannet(inst, "emoji", "import", join(inst.dir, "nowhere")), /cannot read the directory/, "dir");
  });

  it("deletes an emoji and its files", async () => {
    const e = await ctx.repos.customEmojis.getLocal("wave");
    assert.ok(e?.imageKey && e.staticKey);
    const count = (await emojiFiles(inst)).length;
    assert.equal(await gannetOk(inst, "emoji", "delete", "wave"), "OK\n");
    assert.equal(await ctx.repos.customEmojis.getLocal("wave"), undefined);
    assert.equal(await ctx.blobs.get(e.imageKey), undefined);
    assert.equal(await ctx.blobs.get(e.staticKey), undefined);
    assert.equal((await emojiFiles(inst)).length, count - 2);
    assertFailure(await gannet(inst, "emoji", "delete", "wave"), /no custom emoji :wave:/, "again");
    // Case matters: deleting Blobcat leaves blobcat.
    assert.equal(await gannetOk(inst, "emoji", "delete", "Blobcat"), "OK\n");
    assert.ok(await ctx.repos.customEmojis.getLocal("blobcat"));
    assert.ok(!rows(await gannetOk(inst, "emoji", "list")).some((r) => r[0] === "wave" || r[0] === "Blobcat"));
  });

  it("has help", async () => {
    const r = await gannet(inst, "help", "emoji", "import");
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^Usage: gannet emoji import DIR/);
    assert.match(await gannetOk(inst, "emoji", "--help"), /gannet emoji delete SHORTCODE/);
    assert.match(await gannetOk(inst, "help"), /emoji add SHORTCODE FILE/);
  });
});
