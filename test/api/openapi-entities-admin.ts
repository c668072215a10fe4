import assert from "node:assert/strict";
import { it } from "node:test";
import { expectEntity } from "../helpers/entity-schemas.ts";
import type { ApiResponse, TestServer, TestUser } from "../helpers/server.ts";

/**
 * The admin API's entities, checked against the real server's answers: the cases of
 * openapi-entities.test.ts for the admin side, registered inside its suite so that one server
 * serves them and its closing check sees every entity they exercise.
 */
export interface EntityFixture {
  s: TestServer;
  alice: TestUser;
  mod: TestUser;
  get(path: string, u?: TestUser): Promise<ApiResponse>;
  post(path: string, u: TestUser, json?: unknown): Promise<ApiResponse>;
}

export function adminEntityCases(f: EntityFixture): void {
  it("the admin dashboard and hashtags", async () => {
    const { s, alice, mod, get, post } = f;
    const admin = await s.createUser("adam", { role: "Admin", scopes: "read write admin:read admin:write" });
    expectEntity(await post("/api/v1/statuses", alice, { status: "about #Gannets" }), "Status", "tagged post");
    const today = new Date().toISOString().slice(0, 10);
    const range = { start_at: today, end_at: today };
    const body = {
      keys: ["new_users", "instance_media_attachments"],
      ...range,
      instance_media_attachments: { domain: "x.example" },
    };
    const measures = expectEntity<any[]>(await post("/api/v1/admin/measures", mod, body), ["AdminMeasure"], "measures");
    assert.equal(measures.length, 2);
    const dims = { keys: ["servers", "space_usage", "software_versions"], ...range };
    expectEntity(await post("/api/v1/admin/dimensions", mod, dims), ["AdminDimension"], "dimensions");
    const cohorts = await post("/api/v1/admin/retention", mod, range);
    assert.equal(expectEntity<any[]>(cohorts, ["AdminCohort"], "retention").length, 1);
    const tags = expectEntity<any[]>(await get("/api/v1/admin/tags", admin), ["AdminTag"], "admin tags");
    const tag = tags.find((t) => t.name === "Gannets");
    assert.ok(tag);
    const put = await s.request(`/api/v1/admin/tags/${tag.id}`, {
      method: "PUT",
      token: admin.token,
      json: { trendable: true },
    });
    expectEntity(put, "AdminTag", "updated tag");
  });

  it("sign-up and access blocks", async () => {
    const { s, get, post } = f;
    const admin = await s.createUser("blocks_admin", { role: "Admin", scopes: "read write admin:read admin:write" });
    const edb = expectEntity(
      await post("/api/v1/admin/email_domain_blocks", admin, { domain: "spam.example" }),
      "AdminEmailDomainBlock",
      "email domain block",
    );
    expectEntity(
      await get("/api/v1/admin/email_domain_blocks", admin),
      ["AdminEmailDomainBlock"],
      "email domain blocks",
    );
    expectEntity(await get(`/api/v1/admin/email_domain_blocks/${edb.id}`, admin), "AdminEmailDomainBlock", "one");
    expectEntity(
      await post("/api/v1/admin/canonical_email_blocks", admin, { email: "j.doe@example.com" }),
      "AdminCanonicalEmailBlock",
      "canonical e-mail block",
    );
    expectEntity(
      await post("/api/v1/admin/canonical_email_blocks/test", admin, { email: "jdoe+x@example.com" }),
      ["AdminCanonicalEmailBlock"],
      "canonical test",
    );
    const ip = expectEntity(
      await post("/api/v1/admin/ip_blocks", admin, { ip: "192.0.2.0/24", severity: "sign_up_block", expires_in: 60 }),
      "AdminIpBlock",
      "ip block",
    );
    expectEntity(await get(`/api/v1/admin/ip_blocks/${ip.id}`, admin), "AdminIpBlock", "one ip block");
    expectEntity(await get("/api/v1/admin/ip_blocks", admin), ["AdminIpBlock"], "ip blocks");
  });

  it("roles and the action log", async () => {
    const { s, get, post } = f;
    const owner = await s.createUser("rowner", { role: "Owner", scopes: "read write admin:read admin:write" });
    const created = await post("/api/v1/admin/roles", owner, { name: "Helpers", permissions: "1024", position: 5 });
    const role = expectEntity<{ id: string }>(created, "AdminRole", "new role");
    expectEntity(await get(`/api/v1/admin/roles/${role.id}`, owner), "AdminRole", "one role");
    expectEntity(await get("/api/v1/admin/roles", owner), ["AdminRole"], "roles");
    const logs = expectEntity<unknown[]>(
      await get("/api/v1/admin/action_logs", owner),
      ["AdminActionLog"],
      "action log",
    );
    assert.ok(logs.length > 0);
  });

  it("answers admin domain blocks and allows", async () => {
    const { s, get, post } = f;
    const owner = await s.createUser("entityowner", { role: "Owner", scopes: "read write admin:read admin:write" });
    expectEntity(
      await post("/api/v1/admin/domain_blocks", owner, { domain: "entity.example", severity: "noop" }),
      "AdminDomainBlock",
      "domain block",
    );
    expectEntity(await get("/api/v1/admin/domain_blocks", owner), ["AdminDomainBlock"], "domain blocks");
    expectEntity(
      await post("/api/v1/admin/domain_allows", owner, { domain: "entity.example" }),
      "AdminDomainAllow",
      "domain allow",
    );
    expectEntity(await get("/api/v1/admin/domain_allows", owner), ["AdminDomainAllow"], "domain allows");
  });

  it("the trends review: candidates, decisions and publishers", async () => {
    const { s, alice, get, post } = f;
    const admin = await s.createUser("trendy", { role: "Admin", scopes: "read write admin:read admin:write" });
    const status = await post("/api/v1/statuses", alice, { status: "Trending soon #EntityTrend" });
    const tag = await s.ctx.repos.statuses.getTag("entitytrend");
    assert.ok(tag);
    // Scores are the trends job's (tested with real engagement in admin-trends.test.ts).
    const now = new Date().toISOString();
    const card = await s.ctx.repos.previewCards.insert({
      id: s.ctx.ids.next(),
      url: "https://news.example/entity",
      title: "Entity news",
      created_at: now,
      updated_at: now,
    });
    await s.ctx.repos.previewCards.link(status.body.id, card.id, card.url);
    await s.ctx.repos.trends.replaceTags([{ tag_id: tag.id, score: 4, rank: 1 }], now, true);
    await s.ctx.repos.trends.replaceStatuses(
      [{ status_id: status.body.id, account_id: alice.account.id, language: "en", score: 9, rank: 1 }],
      now,
      true,
    );
    await s.ctx.repos.trends.replaceLinks(
      [{ preview_card_id: card.id, language: null, score: 4, rank: 1, allowed: false }],
      now,
    );
    await s.ctx.repos.trends.ensureProviders(["news.example"], () => s.ctx.ids.next(), now);
    expectEntity(await get("/api/v1/admin/trends/tags", admin), ["AdminTag"], "trend tags");
    expectEntity(await get("/api/v1/admin/trends/statuses", admin), ["AdminTrendsStatus"], "trend statuses");
    expectEntity(await get("/api/v1/admin/trends/links", admin), ["AdminTrendsLink"], "trend links");
    const publishers = expectEntity<any[]>(
      await get("/api/v1/admin/trends/links/publishers", admin),
      ["AdminPreviewCardProvider"],
      "publishers",
    );
    expectEntity(await post(`/api/v1/admin/trends/tags/${tag.id}/approve`, admin), "AdminTag", "approve tag");
    expectEntity(
      await post(`/api/v1/admin/trends/statuses/${status.body.id}/reject`, admin),
      "AdminTrendsStatus",
      "reject status",
    );
    expectEntity(await post(`/api/v1/admin/trends/links/${card.id}/approve`, admin), "AdminTrendsLink", "approve link");
    const trending = expectEntity<any[]>(await get("/api/v1/trends/links"), ["TrendsLink"], "trending links");
    assert.equal(trending[0]?.url, card.url);
    expectEntity(
      await post(`/api/v1/admin/trends/links/publishers/${publishers[0].id}/reject`, admin),
      "AdminPreviewCardProvider",
      "reject publisher",
    );
  });
}
