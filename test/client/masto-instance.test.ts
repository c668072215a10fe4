import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRestAPIClient, type mastodon } from "masto";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("masto.js reads the instance", () => {
  let s: TestServer;
  let client: mastodon.rest.Client;
  before(async () => {
    s = await startTestServer({ SITE_TITLE: "Masto Test" });
    await s.createUser("owner", { role: "Owner" });
    client = createRestAPIClient({ url: s.url });
  });
  after(() => s.close());

  it("v2.instance.fetch()", async () => {
    const i = await client.v2.instance.fetch();
    assert.equal(i.domain, s.ctx.config.localDomain);
    assert.equal(i.title, "Masto Test");
    assert.match(i.version, /^4\.5\.0 /);
    assert.equal(i.apiVersions?.mastodon, 7);
    assert.equal(i.configuration.statuses.maxCharacters, 500);
    assert.equal(i.configuration.polls.maxOptions, 4);
    assert.equal(i.configuration.translation.enabled, false);
    assert.match(i.configuration.urls.streaming, /^wss?:\/\//);
    assert.equal(typeof i.configuration.vapid.publicKey, "string");
    assert.equal(i.registrations.enabled, true);
    assert.equal(i.contact.account?.username, "owner");
    assert.equal(typeof i.thumbnail.url, "string");
  });

  it("v1.instance.fetch()", async () => {
    const i = await client.v1.instance.fetch();
    assert.equal(i.uri, s.ctx.config.localDomain);
    assert.equal(i.title, "Masto Test");
    assert.match(i.version, /^4\.5\.0 /);
    assert.match(i.urls.streamingApi, /^wss?:\/\//);
    assert.equal(i.stats.userCount, 1);
    assert.equal(i.configuration.statuses.maxMediaAttachments, 4);
    assert.equal(i.contactAccount?.username, "owner");
  });

  it("reads the instance sub-resources", async () => {
    assert.deepEqual(await client.v1.instance.peers.list(), []);
    const activity = await client.v1.instance.activity.list();
    assert.equal(activity.length, 12);
    assert.equal(typeof activity[0].week, "string");
    const description = await client.v1.instance.extendedDescription.fetch();
    assert.equal(typeof description.content, "string");
    assert.deepEqual(await client.v1.instance.translationLanguages.list(), {});
    // Moderated servers are listed only when the operator publishes them (Mastodon's show_domain_blocks).
    await assert.rejects(client.v1.instance.domainBlocks.fetch(), (e: { statusCode?: number }) => e.statusCode === 404);
    await s.ctx.repos.settings.set("show_domain_blocks", "all");
    assert.deepEqual(await client.v1.instance.domainBlocks.fetch(), []);
  });
});
