import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { ApiError } from "../../src/lib/errors.ts";
import { shortcodesIn } from "../../src/lib/text/shortcodes.ts";
import { addCustomEmoji, deleteCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const png = async (color = "#3366ff", size = 32) =>
  new Uint8Array(
    await sharp({ create: { width: size, height: size, channels: 4, background: color } })
      .png()
      .toBuffer(),
  );
/** An animated GIF: a red frame, then a blue one. */
const gif = async () => {
  const frame = (background: string) =>
    sharp({ create: { width: 24, height: 24, channels: 4, background } })
      .png()
      .toBuffer();
  const frames = [await frame("#ff0000"), await frame("#0000ff")];
  return new Uint8Array(
    await sharp(frames, { join: { animated: true } })
      .gif({ delay: [100, 100] })
      .toBuffer(),
  );
};

const shortcodes = (emojis: { shortcode: string }[]) => emojis.map((e) => e.shortcode).sort();

describe("shortcodes in text", () => {
  it("are found as Mastodon scans them", () => {
    assert.deepEqual(shortcodesIn([":blobcat: hi :party:", ":blobcat:"]), ["blobcat", "party"]);
    assert.deepEqual(shortcodesIn(["(:blobcat:)", "line\n:Blob_1:", "é :ok: è"]), ["blobcat", "Blob_1", "ok"]);
    // Glued to letters, digits or colons: no emoji.
    assert.deepEqual(shortcodesIn(["a:blobcat:b", "12:30:45", "::blobcat::", ":a:", "é:ok:"]), []);
    assert.deepEqual(shortcodesIn([null, undefined, ""]), []);
  });
});

describe("custom emojis", () => {
  let s: TestServer;
  let alice: TestUser;

  const post = (json: Record<string, unknown>) =>
    s.request("/api/v1/statuses", { method: "POST", token: alice.token, json });
  const get = (url: string) => fetch(url);
  const countRows = async () =>
    Number(
      (
        await s.ctx.db
          .selectFrom("custom_emojis")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    await addCustomEmoji(s.ctx, { shortcode: "blobcat", data: await png(), category: "Blobs" });
    // Shortcodes are case-sensitive: another emoji.
    await addCustomEmoji(s.ctx, { shortcode: "Blobcat", data: await png("#00ff00") });
    await addCustomEmoji(s.ctx, { shortcode: "party", data: await gif() });
    await addCustomEmoji(s.ctx, { shortcode: "hidden", data: await png("#000000"), visibleInPicker: false });
    const gone = await addCustomEmoji(s.ctx, { shortcode: "gone", data: await png("#ffffff") });
    await s.ctx.repos.customEmojis.setDisabled(gone.id, true, new Date().toISOString());
  });
  after(() => s.close());

  it("lists the local emojis shown in the picker, publicly and cacheably", async () => {
    for (const token of [undefined, alice.token]) {
      const r = await s.request("/api/v1/custom_emojis", { token });
      assert.equal(r.status, 200);
      assert.match(r.headers.get("cache-control") ?? "", /public/);
      // Disabled and unlisted emojis are left out (Mastodon's `listed`).
      assert.deepEqual(shortcodes(r.body), ["Blobcat", "blobcat", "party"].sort());
      const blobcat = r.body.find((e: { shortcode: string }) => e.shortcode === "blobcat");
      assert.deepEqual(Object.keys(blobcat).sort(), [
        "category",
        "shortcode",
        "static_url",
        "url",
        "visible_in_picker",
      ]);
      assert.equal(blobcat.visible_in_picker, true);
      assert.equal(blobcat.category, "Blobs");
      assert.equal(r.body.find((e: { shortcode: string }) => e.shortcode === "party").category, null);
    }
  });

  it("serves the images and their static versions", async () => {
    const r = await s.request("/api/v1/custom_emojis");
    for (const e of r.body as { shortcode: string; url: string; static_url: string }[]) {
      assert.ok(e.url.startsWith(`${s.ctx.config.baseUrl}/system/`), e.url);
      assert.notEqual(e.url, e.static_url);
      const image = await get(e.url);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get("content-type"), e.shortcode === "party" ? "image/gif" : "image/png");
      const still = await get(e.static_url);
      assert.equal(still.status, 200);
      assert.equal(still.headers.get("content-type"), "image/png");
      const stillBytes = new Uint8Array(await still.arrayBuffer());
      const meta = await sharp(stillBytes).metadata();
      assert.equal(meta.format, "png");
      assert.equal(meta.width, e.shortcode === "party" ? 24 : 32);
      if (e.shortcode === "party") {
        // The animation is served as uploaded; the static image is its first (red) frame.
        const original = new Uint8Array(await image.arrayBuffer());
        assert.equal((await sharp(original, { animated: true }).metadata()).pages, 2);
        assert.equal(meta.pages ?? 1, 1);
        const { data } = await sharp(stillBytes).raw().toBuffer({ resolveWithObject: true });
        assert.deepEqual([...data.subarray(0, 3)], [255, 0, 0]);
      }
    }
  });

  it("carries the emojis a status names, leaving the text as it is", async () => {
    const r = await post({
      status: "Hello :blobcat: and :Blobcat:, :hidden: :unknown: :gone: a:party:b",
      spoiler_text: "cw :party:",
    });
    assert.equal(r.status, 200);
    // Unlisted still renders; unknown, disabled and glued shortcodes do not.
    assert.deepEqual(shortcodes(r.body.emojis), ["Blobcat", "blobcat", "hidden", "party"].sort());
    assert.match(r.body.content, /Hello :blobcat: and :Blobcat:/);
    const blobcat = r.body.emojis.find((e: { shortcode: string }) => e.shortcode === "blobcat");
    assert.equal((await get(blobcat.url)).status, 200);
    assert.equal((await get(blobcat.static_url)).status, 200);
    assert.equal(blobcat.visible_in_picker, true);
    const hidden = r.body.emojis.find((e: { shortcode: string }) => e.shortcode === "hidden");
    assert.equal(hidden.visible_in_picker, false);

    const one = await s.request(`/api/v1/statuses/${r.body.id}`);
    assert.deepEqual(one.body.emojis, r.body.emojis);
    const plain = await post({ status: "no emoji here: 12:30:45" });
    const boost = await s.request(`/api/v1/statuses/${r.body.id}/reblog`, { method: "POST", token: alice.token });
    assert.equal(boost.status, 200);
    assert.deepEqual(boost.body.emojis, []);
    assert.deepEqual(boost.body.reblog.emojis, r.body.emojis);
    const list = await s.request(`/api/v1/statuses?id[]=${r.body.id}&id[]=${plain.body.id}`);
    assert.deepEqual(
      list.body.map((x: { emojis: unknown[] }) => x.emojis.length),
      [4, 0],
    );
    const timeline = await s.request(`/api/v1/accounts/${alice.account.id}/statuses`, { token: alice.token });
    const listed = timeline.body.find((x: { id: string }) => x.id === r.body.id);
    assert.deepEqual(listed.emojis, r.body.emojis);
  });

  it("counts the emojis a poll's options name, on the status and on the poll", async () => {
    const r = await post({ status: "vote", poll: { options: [":blobcat: yes", "no :party:"], expires_in: 3600 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(shortcodes(r.body.emojis), ["blobcat", "party"]);
    assert.deepEqual(shortcodes(r.body.poll.emojis), ["blobcat", "party"]);
    const plain = await post({ status: ":blobcat: vote", poll: { options: ["yes", "no"], expires_in: 3600 } });
    assert.deepEqual(shortcodes(plain.body.emojis), ["blobcat"]);
    assert.deepEqual(plain.body.poll.emojis, []);
  });

  it("carries the emojis of each version in the edit history", async () => {
    const r = await post({ status: "first :blobcat:" });
    const edited = await s.request(`/api/v1/statuses/${r.body.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "second :party:", spoiler_text: ":Blobcat:" },
    });
    assert.equal(edited.status, 200);
    assert.deepEqual(shortcodes(edited.body.emojis), ["Blobcat", "party"]);
    const history = await s.request(`/api/v1/statuses/${r.body.id}/history`);
    assert.equal(history.status, 200);
    assert.deepEqual(
      history.body.map((v: { emojis: { shortcode: string }[] }) => shortcodes(v.emojis)),
      [["blobcat"], ["Blobcat", "party"]],
    );
    assert.ok(history.body[0].emojis[0].url.startsWith(s.ctx.config.baseUrl));
  });

  it("carries the emojis a profile names in its display name, bio and fields", async () => {
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      json: {
        display_name: "Alice :blobcat:",
        note: "Hi :party: :gone:",
        fields_attributes: [
          { name: "Mood :hidden:", value: "fine" },
          { name: "Site", value: "x :Blobcat: :nope:" },
        ],
      },
    });
    assert.equal(r.status, 200);
    const want = ["Blobcat", "blobcat", "hidden", "party"].sort();
    assert.deepEqual(shortcodes(r.body.emojis), want);
    assert.equal(r.body.display_name, "Alice :blobcat:");
    const verify = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.deepEqual(shortcodes(verify.body.emojis), want);
    const account = await s.request(`/api/v1/accounts/${alice.account.id}`);
    assert.deepEqual(shortcodes(account.body.emojis), want);
    for (const e of account.body.emojis) {
      assert.equal((await get(e.url)).status, 200);
      assert.equal((await get(e.static_url)).status, 200);
    }
    const status = await post({ status: "plain" });
    assert.deepEqual(status.body.emojis, []);
    assert.deepEqual(shortcodes(status.body.account.emojis), want);
  });

  it("loads the emojis of a whole list in a fixed number of queries, whatever its length", async () => {
    for (let i = 0; i < 5; i++) await post({ status: `post ${i} :blobcat: :party:` });
    const repo = s.ctx.repos.customEmojis;
    const original = repo.findEnabled.bind(repo);
    let calls = 0;
    repo.findEnabled = (queries) => {
      calls++;
      return original(queries);
    };
    // The page is rendered from kept parts (statuses/rendered.ts): the statuses' emojis in one
    // query, their authors' in the status views and once more for the authors not kept yet. A
    // page of 5 asks no more than a page of 1 (a different page each time: neither is a kept page).
    const callsFor = async (path: string, length: number) => {
      calls = 0;
      const r = await s.request(path, { token: alice.token });
      assert.equal(r.status, 200);
      assert.equal(r.body.length, length);
      for (const st of r.body) assert.deepEqual(shortcodes(st.emojis), ["blobcat", "party"]);
      return calls;
    };
    try {
      const one = await callsFor(`/api/v1/accounts/${alice.account.id}/statuses?limit=1`, 1);
      const five = await callsFor(`/api/v1/accounts/${alice.account.id}/statuses?limit=5`, 5);
      assert.ok(one >= 1 && one <= 3, String(one));
      // (The second page may ask less: its author's kept parts are kept from the first.)
      assert.ok(five <= one, `${five} > ${one}`);
    } finally {
      repo.findEnabled = original;
    }
  });

  it("refuses bad emojis with a 422 and stores nothing", async () => {
    const rows = await countRows();
    const cases: [string, Uint8Array, RegExp][] = [
      ["a", await png(), /too short/],
      ["bad-name", await png(), /letters, numbers and underscores/],
      ["blobcat", await png(), /already been taken/],
      ["textfile", new TextEncoder().encode("not an image at all"), /content type/],
      [
        "jpeg",
        new Uint8Array(
          await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
            .jpeg()
            .toBuffer(),
        ),
        /content type/,
      ],
      ["truncated", (await png("#123456", 64)).slice(0, 60), /could not be read/],
      ["huge", new Uint8Array(256 * 1024 + 1), /256 KB/],
    ];
    for (const [shortcode, data, message] of cases) {
      await assert.rejects(addCustomEmoji(s.ctx, { shortcode, data }), (e: unknown) => {
        assert.ok(e instanceof ApiError, shortcode);
        assert.equal(e.status, 422, shortcode);
        assert.match(e.message, message, shortcode);
        return true;
      });
    }
    assert.equal(await countRows(), rows);
  });

  it("keeps shortcodes unique per domain; a remote emoji never stands in for a local one", async () => {
    const now = new Date().toISOString();
    const row = (shortcode: string, domain: string | null) => ({
      id: s.ctx.ids.next(),
      shortcode,
      domain,
      image_remote_url: `https://remote.example/emoji/${shortcode}.png`,
      created_at: now,
      updated_at: now,
    });
    assert.equal(await s.ctx.repos.customEmojis.insert(row("blobcat", null)), false);
    assert.equal(await s.ctx.repos.customEmojis.insert(row("blobcat", "remote.example")), true);
    assert.equal(await s.ctx.repos.customEmojis.insert(row("blobcat", "remote.example")), false);
    assert.equal(await s.ctx.repos.customEmojis.insert(row("remoteonly", "remote.example")), true);
    const r = await post({ status: ":blobcat: :remoteonly:" });
    assert.equal(r.body.emojis.length, 1);
    assert.ok(r.body.emojis[0].url.startsWith(s.ctx.config.baseUrl));
    const list = await s.request("/api/v1/custom_emojis");
    assert.ok(!list.body.some((e: { shortcode: string }) => e.shortcode === "remoteonly"));
    assert.equal(list.body.filter((e: { shortcode: string }) => e.shortcode === "blobcat").length, 1);
  });

  it("stops carrying a deleted emoji, whose files go", async () => {
    const r = await post({ status: "bye :party:" });
    const emoji = r.body.emojis[0];
    assert.equal(emoji.shortcode, "party");
    assert.equal(await deleteCustomEmoji(s.ctx, "party"), true);
    assert.equal(await deleteCustomEmoji(s.ctx, "party"), false);
    const again = await s.request(`/api/v1/statuses/${r.body.id}`);
    assert.deepEqual(again.body.emojis, []);
    assert.equal((await get(emoji.url)).status, 404);
    assert.equal((await get(emoji.static_url)).status, 404);
    const list = await s.request("/api/v1/custom_emojis");
    assert.deepEqual(shortcodes(list.body), ["Blobcat", "blobcat"].sort());
  });
});
