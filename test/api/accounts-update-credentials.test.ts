import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const png = (w: number, h: number, color = "#3366ff") =>
  sharp({ create: { width: w, height: h, channels: 4, background: color } })
    .png()
    .toBuffer();

function imageForm(field: string, data: Uint8Array, type: string, name: string, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(data)], { type }), name);
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  return form;
}

describe("update_credentials, profile images and preferences", () => {
  let s: TestServer;
  let alice: TestUser;
  const patch = (body: Record<string, unknown>, token = alice.token) =>
    s.request("/api/v1/accounts/update_credentials", { method: "PATCH", token, json: body });

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    await s.createUser("bob");
    await s.createUser("hidden", { confirmed: false });
  });
  after(() => s.close());

  it("updates the display name, note and flags, answering a CredentialAccount", async () => {
    const r = await patch({
      display_name: "Alice 🐦",
      note: "Hi <script>alert(1)</script>\nI post at https://example.com/a/long/path/for/testing/links ok\n\nBye #birds @bob @hidden",
      locked: "true",
      bot: true,
      discoverable: "1",
      indexable: false,
      hide_collections: "on",
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.display_name, "Alice 🐦");
    assert.equal(r.body.locked, true);
    assert.equal(r.body.bot, true);
    assert.equal(r.body.discoverable, true);
    assert.equal(r.body.indexable, false);
    assert.equal(r.body.hide_collections, true);
    assert.equal(
      r.body.source.note,
      "Hi <script>alert(1)</script>\nI post at https://example.com/a/long/path/for/testing/links ok\n\nBye #birds @bob @hidden",
    );
    const note: string = r.body.note;
    assert.ok(
      note.startsWith(
        '<p>Hi &lt;script&gt;alert(1)&lt;/script&gt;<br />I post at <a href="https://example.com/a/long/path/for/testing/links"',
      ),
      note,
    );
    assert.ok(note.includes('rel="nofollow noopener"'), note);
    assert.ok(note.includes('target="_blank"'), note);
    assert.ok(
      note.includes(
        '<span class="ellipsis">example.com/a/long/path/for/te</span><span class="invisible">sting/links</span>',
      ),
      note,
    );
    assert.ok(
      note.includes(
        `<a href="${s.ctx.config.baseUrl}/tags/birds" class="mention hashtag" rel="tag">#<span>birds</span></a>`,
      ),
      note,
    );
    assert.ok(note.includes('class="u-url mention">@<span>bob</span></a>'), note);
    assert.ok(note.endsWith(" @hidden</p>"), "unconfirmed accounts are not linked");
    assert.ok(!note.includes("<script>"));
    assert.ok(note.includes("</p><p>Bye"));

    const me = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.equal(me.body.note, note);
    assert.equal((await s.ctx.repos.accounts.getById(alice.account.id))?.actorType, "Service");
    assert.equal((await patch({ bot: "false" })).body.bot, false);
  });

  it("takes fields_attributes as a JSON array and as numbered form keys", async () => {
    const r = await patch({
      fields_attributes: [
        { name: "Site", value: "https://alice.example" },
        { name: "Pronouns", value: "she/her" },
        { name: "", value: "" },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.fields.length, 2);
    assert.equal(r.body.fields[0].name, "Site");
    assert.match(
      r.body.fields[0].value,
      /^<a href="https:\/\/alice\.example" target="_blank" rel="nofollow noopener me"/,
    );
    assert.equal(r.body.fields[0].verified_at, null);
    assert.equal(r.body.fields[1].value, "she/her");
    assert.deepEqual(r.body.source.fields, [
      { name: "Site", value: "https://alice.example", verified_at: null },
      { name: "Pronouns", value: "she/her", verified_at: null },
    ]);

    const form = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      form: {
        "fields_attributes[0][name]": "Home",
        "fields_attributes[0][value]": "<b>town</b>",
        "fields_attributes[1][name]": "Birds",
        "fields_attributes[1][value]": "gannets",
      },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.deepEqual(
      form.body.fields.map((f: { name: string; value: string }) => [f.name, f.value]),
      [
        ["Home", "&lt;b&gt;town&lt;/b&gt;"],
        ["Birds", "gannets"],
      ],
    );
    const obj = await patch({ fields_attributes: { "1": { name: "B", value: "2" }, "0": { name: "A", value: "1" } } });
    assert.deepEqual(
      obj.body.source.fields.map((f: { name: string }) => f.name),
      ["A", "B"],
    );
    assert.equal((await patch({ fields_attributes: [] })).body.fields.length, 0);
  });

  it("sets the posting defaults in source and preferences", async () => {
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      form: { "source[privacy]": "unlisted", "source[sensitive]": "true", "source[language]": "fr" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.source.privacy, "unlisted");
    assert.equal(r.body.source.sensitive, true);
    assert.equal(r.body.source.language, "fr");
    const prefs = await s.request("/api/v1/preferences", { token: alice.token });
    assert.equal(prefs.status, 200);
    assert.deepEqual(prefs.body, {
      "posting:default:visibility": "unlisted",
      "posting:default:sensitive": true,
      "posting:default:language": "fr",
      "reading:expand:media": "default",
      "reading:expand:spoilers": false,
      "posting:default:quote_policy": "public",
    });
    const cleared = await patch({ source: { language: "", privacy: "private" } });
    assert.equal(cleared.body.source.language, "");
    assert.equal(cleared.body.source.privacy, "private");
    assert.equal(cleared.body.source.sensitive, true);
    assert.equal(
      (await s.request("/api/v1/preferences", { token: alice.token })).body["posting:default:language"],
      null,
    );
  });

  it("keeps the attribution domains (Mastodon 4.4), from JSON and from form arrays", async () => {
    const r = await patch({ attribution_domains: [" News.Example ", "*.blog.example", "", "news.example"] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.source.attribution_domains, ["news.example", "blog.example"]);
    const form = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      form: { "attribution_domains[]": ["press.example", "xn--bcher-kva.example"] },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.deepEqual(form.body.source.attribution_domains, ["press.example", "xn--bcher-kva.example"]);
    // Left out, they stay; a scalar is dropped as Rails' permit drops it; an empty list clears them.
    assert.deepEqual((await patch({ note: "hi" })).body.source.attribution_domains, [
      "press.example",
      "xn--bcher-kva.example",
    ]);
    assert.deepEqual((await patch({ attribution_domains: "press.example" })).body.source.attribution_domains, [
      "press.example",
      "xn--bcher-kva.example",
    ]);
    assert.deepEqual((await patch({ attribution_domains: [] })).body.source.attribution_domains, []);
    const verified = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.deepEqual(verified.body.source.attribution_domains, []);
  });

  it("rejects bad values with 422 and changes nothing", async () => {
    const before = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    const bad: [Record<string, unknown>, string, string][] = [
      [{ display_name: "x".repeat(31) }, "display_name", "ERR_TOO_LONG"],
      [{ note: "n".repeat(501) }, "note", "ERR_TOO_LONG"],
      [{ note: "n".repeat(1_000_000) }, "note", "ERR_TOO_LONG"],
      [
        { fields_attributes: Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, value: "v" })) },
        "fields",
        "ERR_TOO_LONG",
      ],
      [{ fields_attributes: [{ name: "n".repeat(256), value: "v" }] }, "fields", "ERR_TOO_LONG"],
      [{ fields_attributes: [{ name: "n", value: "v".repeat(256) }] }, "fields", "ERR_TOO_LONG"],
      [{ fields_attributes: [{ name: "", value: "orphan" }] }, "fields", "ERR_BLANK"],
      [{ display_name: ["a"] }, "display_name", "ERR_INVALID"],
      [{ locked: "maybe" }, "locked", "ERR_INVALID"],
      [{ source: { privacy: "everyone" } }, "default_privacy", "ERR_INCLUSION"],
      [{ source: { language: "english" } }, "default_language", "ERR_INCLUSION"],
      [{ source: { sensitive: "perhaps" } }, "default_sensitive", "ERR_INVALID"],
      [{ avatar: "https://example.com/a.png" }, "avatar", "ERR_INVALID"],
      [{ attribution_domains: ["https://news.example/"] }, "attribution_domains", "ERR_INVALID"],
      [
        { attribution_domains: Array.from({ length: 11 }, (_, i) => `site${i}.example`) },
        "attribution_domains",
        "ERR_TOO_LONG",
      ],
      // A valid change next to a bad one is not applied either.
      [{ display_name: "Changed", note: "n".repeat(501) }, "note", "ERR_TOO_LONG"],
    ];
    for (const [body, field, code] of bad) {
      const r = await patch(body);
      assert.equal(r.status, 422, `${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(r.body).slice(0, 200)}`);
      assert.match(r.body.error, /^Validation failed: /);
      assert.ok(
        r.body.details[field]?.some((d: { error: string }) => d.error === code),
        JSON.stringify(r.body),
      );
    }
    const after = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    assert.deepEqual(after.body, before.body);
  });

  it("counts URLs as 23 characters in the note, and accepts exactly 30 characters of name", async () => {
    const note = `${"a".repeat(470)} https://example.com/${"x".repeat(200)}`;
    const r = await patch({ note, display_name: "🐦".repeat(30) });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
  });

  it("uploads an avatar and a header, served at their URLs with the right type", async () => {
    const form = imageForm("avatar", await png(800, 600), "image/png", "me.png", { display_name: "With avatar" });
    form.append("header", new Blob([new Uint8Array(await png(100, 100, "#00aa00"))], { type: "image/png" }), "h.png");
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      multipart: form,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.display_name, "With avatar");
    const avatarUrl: string = r.body.avatar;
    assert.ok(avatarUrl.startsWith(`${s.ctx.config.baseUrl}/system/accounts/avatars/${alice.account.id}/`), avatarUrl);
    assert.ok(avatarUrl.endsWith(".png"));
    assert.equal(r.body.avatar_static, avatarUrl);
    assert.ok(r.body.header.includes(`/system/accounts/headers/${alice.account.id}/`));

    const res = await fetch(`${s.url}${new URL(avatarUrl).pathname}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "image/png");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    assert.equal(meta.width, 400);
    assert.equal(meta.height, 400);
    const header = await sharp(
      Buffer.from(await (await fetch(`${s.url}${new URL(r.body.header).pathname}`)).arrayBuffer()),
    ).metadata();
    assert.deepEqual([header.width, header.height], [1500, 500]);
    const account = await s.ctx.repos.accounts.getById(alice.account.id);
    assert.equal(account?.avatarContentType, "image/png");

    // A JPEG replaces it (kept as JPEG) and the old file is deleted.
    const jpeg = await sharp({ create: { width: 50, height: 80, channels: 3, background: "#884400" } })
      .jpeg()
      .toBuffer();
    const r2 = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      multipart: imageForm("avatar", jpeg, "image/jpeg", "me.jpg"),
    });
    assert.equal(r2.status, 200, JSON.stringify(r2.body));
    assert.ok(r2.body.avatar.endsWith(".jpg"));
    assert.equal((await fetch(`${s.url}${new URL(avatarUrl).pathname}`)).status, 404);
    const served = await fetch(`${s.url}${new URL(r2.body.avatar).pathname}`);
    assert.equal(served.headers.get("content-type"), "image/jpeg");
  });

  it("rejects a corrupt or non-image upload with 422 and keeps the old avatar", async () => {
    const before = (await s.request("/api/v1/accounts/verify_credentials", { token: alice.token })).body.avatar;
    const good = await png(64, 64);
    const corrupt = Buffer.concat([good.subarray(0, 40), Buffer.alloc(500, 1)]);
    for (const [data, type] of [
      [corrupt, "image/png"],
      [Buffer.from("just some text"), "image/png"],
      [Buffer.from("<svg xmlns='http://www.w3.org/2000/svg' width='9' height='9'/>"), "image/svg+xml"],
    ] as const) {
      const r = await s.request("/api/v1/accounts/update_credentials", {
        method: "PATCH",
        token: alice.token,
        multipart: imageForm("avatar", data, type, "x.png", { display_name: "Should not stick" }),
      });
      assert.equal(r.status, 422, JSON.stringify(r.body));
      assert.equal(r.body.details.avatar[0].error, "ERR_INVALID");
    }
    const me = (await s.request("/api/v1/accounts/verify_credentials", { token: alice.token })).body;
    assert.equal(me.avatar, before);
    assert.notEqual(me.display_name, "Should not stick");
    assert.equal((await fetch(`${s.url}${new URL(before).pathname}`)).status, 200);
  });

  it("rejects files over 16 MiB with 422", async () => {
    const big = new Uint8Array(16 * 1024 * 1024 + 1);
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      multipart: imageForm("header", big, "image/png", "big.png"),
    });
    assert.equal(r.status, 422);
    assert.equal(r.body.details.header[0].error, "ERR_TOO_LARGE");
  });

  it("takes a data: URI, and PUT as well as PATCH", async () => {
    const uri = `data:image/png;base64,${(await png(10, 10, "#ff00ff")).toString("base64")}`;
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PUT",
      token: alice.token,
      json: { header: uri },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.header.includes("/system/accounts/headers/"));
  });

  it("deletes the avatar and the header", async () => {
    const before = await s.request("/api/v1/accounts/verify_credentials", { token: alice.token });
    const oldAvatar = new URL(before.body.avatar).pathname;
    const r = await s.request("/api/v1/profile/avatar", { method: "DELETE", token: alice.token });
    assert.equal(r.status, 200);
    assert.equal(r.body.avatar, `${s.ctx.config.baseUrl}/avatars/original/missing.png`);
    assert.ok(r.body.source, "a CredentialAccount");
    assert.equal((await fetch(`${s.url}${oldAvatar}`)).status, 404);
    const h = await s.request("/api/v1/profile/header", { method: "DELETE", token: alice.token });
    assert.equal(h.status, 200);
    assert.equal(h.body.header, `${s.ctx.config.baseUrl}/headers/original/missing.png`);
    // Deleting again is fine.
    assert.equal((await s.request("/api/v1/profile/header", { method: "DELETE", token: alice.token })).status, 200);
  });

  it("checks tokens and scopes", async () => {
    assert.equal((await s.request("/api/v1/accounts/update_credentials", { method: "PATCH", json: {} })).status, 401);
    const reader = await s.createUser("reader", { scopes: "read" });
    const r = await patch({ display_name: "x" }, reader.token);
    assert.equal(r.status, 403);
    assert.equal(r.body.error, "This action is outside the authorized scopes");
    assert.equal((await s.request("/api/v1/profile/avatar", { method: "DELETE", token: reader.token })).status, 403);
    const writer = await s.createUser("writer", { scopes: "write:accounts" });
    assert.equal((await patch({ display_name: "W" }, writer.token)).status, 200);
    assert.equal((await s.request("/api/v1/preferences", { token: writer.token })).status, 403);
    const app = await s.appToken("read write");
    assert.equal((await patch({ display_name: "x" }, app)).status, 422);
    assert.equal((await s.request("/api/v1/preferences", { token: app })).status, 422);
    assert.equal((await s.request("/api/v1/preferences")).status, 401);
    const unconfirmed = await s.createUser("notyet", { confirmed: false });
    const u = await patch({ display_name: "x" }, unconfirmed.token);
    assert.equal(u.status, 403);
    assert.equal(u.body.error, "Your login is missing a confirmed e-mail address");
  });
});
