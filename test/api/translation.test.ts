import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import sharp from "sharp";
import { addCustomEmoji } from "../../src/services/custom-emojis/manage.ts";
import { expectEntity } from "../helpers/entity-schemas.ts";
import { type FakeTranslator, startFakeDeepL, startFakeLibreTranslate } from "../helpers/fake-translators.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

/**
 * Translation of posts through DeepL and LibreTranslate, each played by a loopback server that
 * speaks its HTTP interface (test/helpers/fake-translators.ts) and records what it was sent.
 */

const png = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: "#2266aa" } })
    .png()
    .toBuffer();

/**
 * A backend that hangs is given up after the service's timeout (10 s); here the guarded client
 * is told to give up sooner, so that case does not hold the suite up.
 */
function shortenTimeouts(s: TestServer, ms: number): void {
  const inner = s.ctx.guardedFetch;
  s.ctx.guardedFetch = (url, init) => inner(url, { ...init, timeoutMs: Math.min(init?.timeoutMs ?? ms, ms) });
}

const CONTENT = "Hello @bob, look at #cats :blobcat: & more";

describe("translation through DeepL (LibreTranslate configured too)", () => {
  let deepl: FakeTranslator;
  let libre: FakeTranslator;
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  const post = (u: TestUser, json: Record<string, unknown>) =>
    s.request("/api/v1/statuses", { method: "POST", token: u.token, json });
  const translate = (id: string, token: string | undefined, json: Record<string, unknown> = {}, headers = {}) =>
    s.request(`/api/v1/statuses/${id}/translate`, { method: "POST", token, json, headers });
  const translations = () => deepl.to("/v2/translate");

  before(async () => {
    [deepl, libre] = await Promise.all([startFakeDeepL("deepl-key"), startFakeLibreTranslate("libre-key")]);
    s = await startTestServer({
      DEEPL_API_KEY: "deepl-key",
      DEEPL_PLAN: "pro",
      DEEPL_API_URL: deepl.url,
      LIBRE_TRANSLATE_ENDPOINT: libre.url,
      LIBRE_TRANSLATE_API_KEY: "libre-key",
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
    });
    shortenTimeouts(s, 1500);
    [alice, bob] = await Promise.all([s.createUser("alice"), s.createUser("bob")]);
    await addCustomEmoji(s.ctx, { shortcode: "blobcat", data: await png() });
  });
  after(async () => {
    await s?.close();
    await Promise.all([deepl?.close(), libre?.close()]);
  });

  it("answers 503 while the language list cannot be had, and fetches it once it can", async () => {
    const { body: status } = await post(alice, { status: "Hello", language: "en" });
    deepl.mode.languages = "garbage";
    const list = await s.request("/api/v1/instance/translation_languages");
    assert.equal(list.status, 503);
    assert.deepEqual(list.body, { error: "Service Unavailable" });
    const r = await translate(status.id, alice.token, { lang: "de" });
    assert.equal(r.status, 503);
    assert.equal(translations().length, 0);

    deepl.mode.languages = "ok";
    const before = deepl.to("/v2/languages").length;
    const ok = await s.request("/api/v1/instance/translation_languages");
    assert.equal(ok.status, 200);
    // Every source (und: detected) translates into every target but itself; plain en and pt are added.
    const targets = ["en", "pt", "de", "en-GB", "en-US", "fr", "ja", "pt-BR", "pt-PT"];
    assert.deepEqual(ok.body.und, targets);
    assert.deepEqual(
      ok.body.en,
      targets.filter((t) => t !== "en"),
    );
    assert.deepEqual(Object.keys(ok.body).sort(), ["de", "en", "fr", "ja", "und"]);
    const asked = deepl.to("/v2/languages").slice(before);
    assert.deepEqual(asked.map((q) => q.query.get("type")).sort(), ["source", "target"]);
    assert.equal(asked[0]?.headers.authorization, "DeepL-Auth-Key deepl-key");

    // Kept: neither the list nor a translation asks for it again.
    assert.equal((await s.request("/api/v1/instance/translation_languages")).status, 200);
    assert.equal((await translate(status.id, alice.token, { lang: "de" })).status, 200);
    assert.equal(deepl.to("/v2/languages").length, before + 2);
  });

  it("turns configuration.translation.enabled on", async () => {
    const r = await s.request("/api/v2/instance");
    assert.deepEqual(r.body.configuration.translation, { enabled: true });
  });

  it("translates content, content warning and poll in one request, keeping the HTML", async () => {
    const { body: status } = await post(alice, {
      status: CONTENT,
      spoiler_text: "Spoilers :blobcat:",
      language: "en",
      poll: { options: ["Yes please", "No <thanks>"], expires_in: 3600 },
    });
    const sent = translations().length;
    const r = await translate(status.id, alice.token, { lang: "de" });
    const t = expectEntity(r, "Translation", "translation");
    assert.deepEqual(Object.keys(t), [
      "detected_source_language",
      "language",
      "provider",
      "spoiler_text",
      "content",
      "poll",
      "media_attachments",
    ]);
    assert.equal(t.provider, "DeepL.com");
    assert.equal(t.language, "de");
    assert.equal(t.detected_source_language, "en");
    assert.equal(t.spoiler_text, "SPOILERS :blobcat:");
    assert.deepEqual(t.poll, { id: status.poll.id, options: [{ title: "YES PLEASE" }, { title: "NO <THANKS>" }] });
    assert.deepEqual(t.media_attachments, []);
    // Text translated; the mention, the hashtag and the emoji left as they were; no marks left.
    assert.match(
      t.content,
      /^<p>HELLO <span class="h-card"><a [^>]*class="u-url mention"[^>]*>@<span>bob<\/span><\/a><\/span>, LOOK AT <a [^>]*class="mention hashtag"[^>]*>#<span>cats<\/span><\/a> :blobcat: &amp; MORE<\/p>$/,
    );
    assert.ok(!t.content.includes("translate="), t.content);

    // One request, DeepL's way, with every text in it.
    const [req, ...more] = translations().slice(sent);
    assert.equal(more.length, 0);
    assert.equal(req?.method, "POST");
    assert.equal(req?.headers.authorization, "DeepL-Auth-Key deepl-key");
    assert.match(req?.headers["content-type"] ?? "", /^application\/x-www-form-urlencoded/);
    const form = new URLSearchParams(req?.body);
    assert.equal(form.get("source_lang"), "EN");
    assert.equal(form.get("target_lang"), "DE");
    assert.equal(form.get("tag_handling"), "html");
    const texts = form.getAll("text");
    assert.equal(texts.length, 4);
    const base = s.ctx.config.baseUrl;
    assert.equal(
      texts[0],
      `<p>Hello <span class="h-card" translate="no"><a href="${base}/@bob" class="u-url mention" translate="no">@<span>bob</span></a></span>, ` +
        `look at <a href="${base}/tags/cats" class="mention hashtag" rel="tag" translate="no">#<span>cats</span></a> ` +
        '<span translate="no">:blobcat:</span> &amp; more</p>',
    );
    assert.deepEqual(texts.slice(1), [
      'Spoilers <span translate="no">:blobcat:</span>',
      "Yes please",
      "No &lt;thanks&gt;",
    ]);
    // DeepL is used first: LibreTranslate heard nothing.
    assert.equal(libre.requests.length, 0);
  });

  it("keeps a translation per edit and language, and translates an edit afresh", async () => {
    const { body: status } = await post(alice, { status: "Good morning", language: "en" });
    const first = await translate(status.id, alice.token, { lang: "de" });
    assert.equal(first.body.content, "<p>GOOD MORNING</p>");
    const sent = translations().length;
    // Again, by another reader: from the cache.
    assert.deepEqual((await translate(status.id, bob.token, { lang: "de" })).body, first.body);
    assert.equal(translations().length, sent);
    // Another language is another translation.
    const fr = await translate(status.id, alice.token, { lang: "fr" });
    assert.equal(fr.body.language, "fr");
    assert.equal(translations().length, sent + 1);
    assert.equal(new URLSearchParams(translations().at(-1)?.body).get("target_lang"), "FR");
    // An edit is translated again.
    const edit = await s.request(`/api/v1/statuses/${status.id}`, {
      method: "PUT",
      token: alice.token,
      json: { status: "Good evening" },
    });
    assert.equal(edit.status, 200);
    const edited = await translate(status.id, alice.token, { lang: "de" });
    assert.equal(edited.body.content, "<p>GOOD EVENING</p>");
    assert.equal(translations().length, sent + 2);
  });

  it("translates media descriptions with the text, and refuses a post with nothing to translate", async () => {
    const upload = async (description?: string) => {
      const form = new FormData();
      form.set("file", new Blob([await png()], { type: "image/png" }), "cat.png");
      if (description) form.set("description", description);
      const r = await s.request("/api/v1/media", { method: "POST", token: alice.token, multipart: form });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body.id as string;
    };
    const described = await upload("A cat on a mat");
    const { body: status } = await post(alice, { status: "Look", language: "en", media_ids: [described] });
    const sent = translations().length;
    const t = expectEntity(await translate(status.id, alice.token, { lang: "de" }), "Translation", "with media");
    assert.equal(t.content, "<p>LOOK</p>");
    assert.deepEqual(t.media_attachments, [{ id: described, description: "A CAT ON A MAT" }]);
    assert.equal(t.poll, null);
    assert.deepEqual(new URLSearchParams(translations()[sent]?.body).getAll("text"), ["<p>Look</p>", "A cat on a mat"]);

    const { body: bare } = await post(alice, { status: "", language: "en", media_ids: [await upload()] });
    const r = await translate(bare.id, alice.token, { lang: "de" });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: "This action is not allowed" });
  });

  it("takes the reader's language by default, and an app token's from Accept-Language", async () => {
    const { body: status } = await post(bob, { status: "Guten Tag", language: "de" });
    // alice's locale is en.
    const mine = await translate(status.id, alice.token);
    assert.equal(mine.status, 200);
    assert.equal(mine.body.language, "en");
    assert.equal(new URLSearchParams(translations().at(-1)?.body).get("target_lang"), "EN");

    const app = await s.appToken("read:statuses");
    const r = await translate(status.id, app, {}, { "accept-language": "fr-CA, de;q=0.5" });
    assert.equal(r.status, 200);
    // fr-CA is not a target of DeepL's: French it is.
    assert.equal(r.body.language, "fr");
    assert.equal(r.body.detected_source_language, "de");
  });

  it("refuses what may not be translated (403) or seen (404), and checks the token", async () => {
    const { body: pub } = await post(alice, { status: "Public words", language: "en" });
    const { body: priv } = await post(alice, { status: "Private words", language: "en", visibility: "private" });
    const sent = translations().length;

    const expect = async (r: Promise<{ status: number; body: unknown }>, status: number, error: string) => {
      const res = await r;
      assert.equal(res.status, status, JSON.stringify(res.body));
      assert.deepEqual(res.body, { error });
    };
    await expect(translate(priv.id, alice.token, { lang: "de" }), 403, "This action is not allowed");
    await expect(translate(pub.id, alice.token, { lang: "en" }), 403, "This action is not allowed");
    await expect(translate(pub.id, alice.token, { lang: "xx" }), 403, "This action is not allowed");
    await expect(translate(priv.id, bob.token, { lang: "de" }), 404, "Record not found");
    await expect(translate("1234567", alice.token, { lang: "de" }), 404, "Record not found");
    await expect(translate(pub.id, undefined, { lang: "de" }), 401, "The access token is invalid");
    const writer = await s.createUser("writer", { scopes: "write" });
    await expect(translate(pub.id, writer.token, { lang: "de" }), 403, "This action is outside the authorized scopes");
    assert.equal(translations().length, sent);
  });

  it("answers 503 when DeepL fails, times out or answers nonsense, and keeps no failure", async () => {
    const { body: status } = await post(alice, { status: "Try again", language: "en" });
    const cases: [FakeTranslator["mode"]["translate"], string][] = [
      [{ status: 500 }, "Service Unavailable"],
      [{ status: 456 }, "The server-wide usage quota for the translation service has been exceeded."],
      [{ status: 429 }, "There have been too many requests to the translation service recently."],
      ["garbage", "Service Unavailable"],
      ["wrong-shape", "Service Unavailable"],
      ["hang", "Service Unavailable"],
    ];
    for (const [mode, error] of cases) {
      deepl.mode.translate = mode;
      const r = await translate(status.id, alice.token, { lang: "de" });
      assert.equal(r.status, 503, `${JSON.stringify(mode)}: ${r.status}`);
      assert.deepEqual(r.body, { error });
    }
    deepl.mode.translate = "ok";
    const r = await translate(status.id, alice.token, { lang: "de" });
    assert.equal(r.status, 200);
    assert.equal(r.body.content, "<p>TRY AGAIN</p>");
  });
});

describe("translation through LibreTranslate", () => {
  let libre: FakeTranslator;
  let s: TestServer;
  let alice: TestUser;

  const translate = (server: TestServer, id: string, token: string, lang: string) =>
    server.request(`/api/v1/statuses/${id}/translate`, { method: "POST", token, json: { lang } });

  before(async () => {
    libre = await startFakeLibreTranslate("libre-key");
    s = await startTestServer({
      LIBRE_TRANSLATE_ENDPOINT: `${libre.url}/`,
      LIBRE_TRANSLATE_API_KEY: "libre-key",
      ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1",
    });
    alice = await s.createUser("alice");
  });
  after(async () => {
    await s?.close();
    await libre?.close();
  });

  it("lists LibreTranslate's language pairs, und for detection", async () => {
    assert.deepEqual((await s.request("/api/v2/instance")).body.configuration.translation, { enabled: true });
    const r = await s.request("/api/v1/instance/translation_languages");
    assert.deepEqual(r.body, { en: ["de", "fr"], de: ["en"], fr: ["en"], und: ["de", "en", "fr"] });
    await s.request("/api/v1/instance/translation_languages");
    assert.equal(libre.to("/languages").length, 1);
  });

  it("translates every text in one JSON request with the key, and keeps the result", async () => {
    const { body: status } = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: {
        status: "Hello & welcome",
        spoiler_text: "Careful",
        language: "en",
        poll: { options: ["Tea", "Coffee"], expires_in: 3600 },
      },
    });
    const t = expectEntity(await translate(s, status.id, alice.token, "de"), "Translation", "LibreTranslate");
    assert.deepEqual(t, {
      detected_source_language: "en",
      language: "de",
      provider: "LibreTranslate",
      spoiler_text: "CAREFUL",
      content: "<p>HELLO &amp; WELCOME</p>",
      poll: { id: status.poll.id, options: [{ title: "TEA" }, { title: "COFFEE" }] },
      media_attachments: [],
    });
    const sent = libre.to("/translate");
    assert.equal(sent.length, 1);
    assert.match(sent[0]?.headers["content-type"] ?? "", /^application\/json/);
    assert.deepEqual(JSON.parse(sent[0]?.body ?? ""), {
      q: ["<p>Hello &amp; welcome</p>", "Careful", "Tea", "Coffee"],
      source: "en",
      target: "de",
      format: "html",
      api_key: "libre-key",
    });
    assert.deepEqual((await translate(s, status.id, alice.token, "de")).body, t);
    assert.equal(libre.to("/translate").length, 1);
    // Into its own language: refused.
    assert.equal((await translate(s, status.id, alice.token, "en")).status, 403);
  });

  it("is read by masto.js", async () => {
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const status = await client.v1.statuses.create({ status: "Masto says hi", spoilerText: "Hi", language: "en" });
    // masto's own type names only the 4.0 members; what it hands on is the whole entity, camel-cased.
    const t = (await client.v1.statuses.$select(status.id).translate({ lang: "fr" })) as unknown as Record<
      string,
      unknown
    >;
    assert.equal(t.content, "<p>MASTO SAYS HI</p>");
    assert.equal(t.spoilerText, "HI");
    assert.equal(t.detectedSourceLanguage, "en");
    assert.equal(t.provider, "LibreTranslate");
    assert.deepEqual((await client.v1.instance.translationLanguages.list()).de, ["en"]);
  });

  it("leaves a post without a language to the backend to detect", async () => {
    const { body: status } = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "Bonjour", language: "en" },
    });
    await s.ctx.db.updateTable("statuses").set({ language: null }).where("id", "=", status.id).execute();
    const r = await translate(s, status.id, alice.token, "de");
    assert.equal(r.status, 200);
    assert.equal(r.body.detected_source_language, "fr");
    assert.equal(r.body.content, "<p>BONJOUR</p>");
    assert.equal(JSON.parse(libre.to("/translate").at(-1)?.body ?? "").source, "auto");
  });

  it("answers 503 for a refused key, an error or nonsense", async () => {
    const { body: status } = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      json: { status: "Once more", language: "en" },
    });
    for (const [mode, error] of [
      [{ status: 403 }, "The server-wide usage quota for the translation service has been exceeded."],
      [{ status: 500 }, "Service Unavailable"],
      ["garbage", "Service Unavailable"],
      ["wrong-shape", "Service Unavailable"],
    ] as const) {
      libre.mode.translate = mode;
      const r = await translate(s, status.id, alice.token, "fr");
      assert.deepEqual([r.status, r.body], [503, { error }], JSON.stringify(mode));
    }
    libre.mode.translate = "ok";
    assert.equal((await translate(s, status.id, alice.token, "fr")).body.content, "<p>ONCE MORE</p>");
  });

  it("reaches a backend on a private address only when the operator allows it", async () => {
    const closed = await startTestServer({ LIBRE_TRANSLATE_ENDPOINT: libre.url, LIBRE_TRANSLATE_API_KEY: "libre-key" });
    try {
      const before = libre.requests.length;
      const carol = await closed.createUser("carol");
      const { body: status } = await closed.request("/api/v1/statuses", {
        method: "POST",
        token: carol.token,
        json: { status: "Hello", language: "en" },
      });
      assert.equal((await closed.request("/api/v1/instance/translation_languages")).status, 503);
      const r = await translate(closed, status.id, carol.token, "de");
      assert.deepEqual([r.status, r.body], [503, { error: "Service Unavailable" }]);
      assert.equal(libre.requests.length, before);
    } finally {
      await closed.close();
    }
  });
});
