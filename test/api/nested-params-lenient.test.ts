import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient } from "masto";
import { newSubscriptionKeys } from "../helpers/push-receiver.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

// Rails' `permit` drops a scalar given where a hash or a list of hashes is expected, so Mastodon
// answers as if the parameter were absent; masto.js relies on it, sending `x=undefined` in
// multipart bodies for every key it was handed as undefined.
describe("nested parameters given as scalars are ignored, as Rails does", () => {
  let s: TestServer;
  let alice: TestUser;
  const FIELDS = [
    { name: "Site", value: "https://alice.example", verified_at: null },
    { name: "Pronouns", value: "she/her", verified_at: null },
  ];

  const multipart = (entries: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(entries)) form.append(k, v);
    return form;
  };
  const credentials = async () => (await s.request("/api/v1/accounts/verify_credentials", { token: alice.token })).body;

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
  });
  after(() => s.close());

  const setFields = async () => {
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      json: { fields_attributes: FIELDS.map(({ name, value }) => ({ name, value })), source: { privacy: "unlisted" } },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.source.fields, FIELDS);
  };

  it("update_credentials (multipart): fields_attributes=undefined and source=undefined change nothing else", async () => {
    await setFields();
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      multipart: multipart({ display_name: "Alice M", fields_attributes: "undefined", source: "undefined" }),
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.display_name, "Alice M");
    assert.deepEqual(r.body.source.fields, FIELDS);
    assert.equal(r.body.source.privacy, "unlisted");
  });

  it("update_credentials (JSON and form): scalars and lists of scalars where hashes belong are ignored", async () => {
    await setFields();
    const cases: Record<string, unknown>[] = [
      { fields_attributes: "undefined" },
      { fields_attributes: "" },
      { fields_attributes: 42 },
      { fields_attributes: true },
      { fields_attributes: [1, "two"] },
      { source: "public" },
      { source: ["private"] },
      { fields_attributes: "x", source: "y", note: "kept" },
    ];
    for (const json of cases) {
      const r = await s.request("/api/v1/accounts/update_credentials", { method: "PATCH", token: alice.token, json });
      assert.equal(r.status, 200, `${JSON.stringify(json)}: ${JSON.stringify(r.body)}`);
      assert.deepEqual(r.body.source.fields, FIELDS, JSON.stringify(json));
      assert.equal(r.body.source.privacy, "unlisted", JSON.stringify(json));
    }
    const form = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      form: { fields_attributes: "undefined", "source[]": "x" },
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.deepEqual(form.body.source.fields, FIELDS);
    assert.equal((await credentials()).note, "<p>kept</p>");
  });

  it("update_credentials: entries that are not name/value hashes are dropped, the others kept", async () => {
    const r = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      json: { fields_attributes: ["junk", { name: "Only", value: "this" }, null] },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.fields, [{ name: "Only", value: "this", verified_at: null }]);
    // An empty list is a real list: it clears the fields, as in Mastodon.
    const cleared = await s.request("/api/v1/accounts/update_credentials", {
      method: "PATCH",
      token: alice.token,
      json: { fields_attributes: [] },
    });
    assert.equal(cleared.status, 200);
    assert.deepEqual(cleared.body.fields, []);
  });

  it("update_credentials through masto.js with fieldsAttributes left undefined", async () => {
    await setFields();
    const client = createRestAPIClient({ url: s.url, accessToken: alice.token });
    const me = await client.v1.accounts.updateCredentials({
      displayName: "Alice via masto",
      fieldsAttributes: undefined,
      source: undefined,
    });
    assert.equal(me.displayName, "Alice via masto");
    assert.deepEqual(
      me.source?.fields.map((f) => [f.name, f.value]),
      FIELDS.map((f) => [f.name, f.value]),
    );
    assert.equal(me.source?.privacy, "unlisted");
  });

  it("statuses: a scalar or a list as poll means no poll", async () => {
    for (const json of [
      { status: "a", poll: "a,b" },
      { status: "b", poll: ["a", "b"] },
    ]) {
      const r = await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.poll, null);
    }
    const form = await s.request("/api/v1/statuses", {
      method: "POST",
      token: alice.token,
      multipart: multipart({ status: "c", poll: "undefined" }),
    });
    assert.equal(form.status, 200, JSON.stringify(form.body));
    assert.equal(form.body.poll, null);
    // Without a text, an ignored poll leaves nothing to post.
    const empty = await s.request("/api/v1/statuses", { method: "POST", token: alice.token, json: { poll: "x" } });
    assert.equal(empty.status, 422);
  });

  it("filters v2: keywords_attributes as a scalar, or its scalar entries, are ignored", async () => {
    const r = await s.request("/api/v2/filters", {
      method: "POST",
      token: alice.token,
      multipart: multipart({ title: "t", "context[]": "home", keywords_attributes: "undefined" }),
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.keywords, []);
    const mixed = await s.request("/api/v2/filters", {
      method: "POST",
      token: alice.token,
      json: { title: "u", context: ["home"], keywords_attributes: ["nope", { keyword: "dune" }] },
    });
    assert.equal(mixed.status, 200, JSON.stringify(mixed.body));
    assert.deepEqual(
      mixed.body.keywords.map((k: { keyword: string }) => k.keyword),
      ["dune"],
    );
  });

  it("push: data and data[alerts] as scalars are ignored; a scalar subscription is still a 400", async () => {
    const keys = newSubscriptionKeys();
    const r = await s.request("/api/v1/push/subscription", {
      method: "POST",
      token: alice.token,
      multipart: multipart({
        "subscription[endpoint]": "https://push.example/a",
        "subscription[keys][p256dh]": keys.p256dh,
        "subscription[keys][auth]": keys.auth,
        data: "undefined",
      }),
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.policy, "all");
    const put = await s.request("/api/v1/push/subscription", {
      method: "PUT",
      token: alice.token,
      json: { data: { alerts: "undefined", policy: "followed" } },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.policy, "followed");
    const bad = await s.request("/api/v1/push/subscription", {
      method: "POST",
      token: alice.token,
      json: { subscription: "https://push.example/a" },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /subscription/);
  });

  it("markers: a scalar or a list where a timeline's hash belongs is ignored", async () => {
    const r = await s.request("/api/v1/markers", {
      method: "POST",
      token: alice.token,
      json: { home: ["1"], notifications: "undefined" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, {});
  });
});
