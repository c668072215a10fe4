import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import vm from "node:vm";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { signIn } from "../helpers/web.ts";

describe("web client: the compose box", () => {
  let s: TestServer;
  let ann: TestUser;
  let ben: TestUser;
  before(async () => {
    s = await startTestServer();
    ann = await s.createUser("ann");
    ben = await s.createUser("ben");
  });
  after(async () => {
    await s?.close();
  });

  it("sends a visitor without a session to sign in", async () => {
    const r = await s.request("/web/compose");
    assert.equal(r.status, 302);
    assert.match(r.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=%2Fweb%2Fcompose/);
  });

  it("renders the server's limits (as /api/v2/instance) and the user's posting defaults", async () => {
    const prefs = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: ann.token,
      json: { source: { privacy: "private", language: "de", sensitive: true } },
    });
    assert.equal(prefs.status, 200, JSON.stringify(prefs.body));
    const web = await signIn(s, ann);
    const page = await web.get("/web/compose");
    assert.equal(page.status, 200);
    const form = page.doc.querySelector("form#compose");
    assert.ok(form, "the compose box");
    const { configuration } = (await s.request("/api/v2/instance")).body;
    const num = (name: string) => Number(form.getAttribute(`data-${name}`));
    assert.equal(num("max-characters"), configuration.statuses.max_characters);
    assert.equal(num("url-length"), configuration.statuses.characters_reserved_per_url);
    assert.equal(num("max-media"), configuration.statuses.max_media_attachments);
    assert.equal(num("max-options"), configuration.polls.max_options);
    assert.equal(num("max-option-characters"), configuration.polls.max_characters_per_option);
    assert.equal(num("min-expiration"), configuration.polls.min_expiration);
    assert.equal(num("max-expiration"), configuration.polls.max_expiration);
    assert.equal(num("description-limit"), configuration.media_attachments.description_limit);
    assert.equal(page.doc.querySelector("#compose-remaining")?.text, String(configuration.statuses.max_characters));
    const accept = page.doc.querySelector("#compose-file")?.getAttribute("accept")?.split(",");
    assert.deepEqual(accept, configuration.media_attachments.supported_mime_types);

    // The defaults are the user's preferences (as GET /api/v1/preferences answers them).
    const p = (await s.request("/api/v1/preferences", { token: ann.token })).body;
    assert.equal(p["posting:default:visibility"], "private");
    assert.equal(p["posting:default:language"], "de");
    const selected = (id: string) => page.doc.querySelector(`#${id} option[selected]`)?.getAttribute("value");
    assert.equal(selected("compose-visibility"), "private");
    assert.equal(selected("compose-language"), "de");
    assert.equal(form.getAttribute("data-default-visibility"), "private");
    assert.equal(page.doc.querySelector("#compose-sensitive")?.hasAttribute("checked"), true);
    // Languages as /api/v1/instance/languages lists them; poll durations within the server's range.
    const languages = (await s.request("/api/v1/instance/languages")).body as { code: string }[];
    const offered = page.doc.querySelectorAll("#compose-language option").map((o) => o.getAttribute("value"));
    assert.deepEqual(
      offered,
      languages.map((l) => l.code),
    );
    for (const o of page.doc.querySelectorAll("#compose-poll-expires option")) {
      const secs = Number(o.getAttribute("value"));
      assert.ok(secs >= configuration.polls.min_expiration && secs <= configuration.polls.max_expiration);
    }
    // The page's list for what is posted from it, and the script that drives the box.
    assert.ok(page.doc.querySelector("ul.statuses[data-compose-posted]"));
    assert.ok(page.doc.querySelector('script[src^="/assets/client-compose.js"]'));
    assert.equal(page.doc.querySelector("#compose-submit")?.hasAttribute("disabled"), true, "enabled by the script");
  });

  it("defaults to public and the page's language without preferences", async () => {
    const web = await signIn(s, ben);
    const page = await web.get("/web/compose");
    const selected = (id: string) => page.doc.querySelector(`#${id} option[selected]`)?.getAttribute("value");
    assert.equal(selected("compose-visibility"), "public");
    assert.equal(selected("compose-language"), "en");
    assert.equal(page.doc.querySelector("#compose-sensitive")?.hasAttribute("checked"), false);
  });

  it("serves a character count that agrees with the limit the API enforces", async () => {
    const web = await signIn(s, ben);
    const page = await web.get("/web/compose");
    const src = page.doc.querySelector('script[src^="/assets/client-compose.js"]')?.getAttribute("src") ?? "";
    const script = await s.request<string>(src);
    assert.equal(script.status, 200);
    const sandbox: Record<string, unknown> = { window: {}, URL };
    vm.runInNewContext(script.body, sandbox);
    const count = sandbox.composeLength as (text: string, urlLength: number) => number;
    const { configuration } = (await s.request("/api/v2/instance")).body;
    const max: number = configuration.statuses.max_characters;
    const urlLength: number = configuration.statuses.characters_reserved_per_url;

    const url = `https://example.com/${"a".repeat(80)}`;
    assert.equal(count(url, urlLength), urlLength, "a URL counts as its reserved length");
    assert.equal(count("@ann@remote.example hi", urlLength), "@ann hi".length, "a mention counts its username");
    assert.equal(count("👩‍👩‍👧 ok", urlLength), 4, "graphemes");

    // Text the counter puts exactly at the limit posts; one more character is refused.
    const head = `${url} @ann@remote.example `;
    const fill = (n: number) => head + "x".repeat(n - count(head, urlLength));
    assert.equal(count(fill(max), urlLength), max);
    const ok = await s.request("/api/v1/statuses", { method: "POST", token: ben.token, json: { status: fill(max) } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const over = await s.request("/api/v1/statuses", {
      method: "POST",
      token: ben.token,
      json: { status: fill(max + 1) },
    });
    assert.equal(over.status, 422);
  });
});
