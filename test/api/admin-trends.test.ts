import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import { after, before, describe, it } from "node:test";
import { noticeTrendsForReview } from "../../src/services/moderation/trend-review-notice.ts";
import { refreshAllowed } from "../../src/services/trends/allowed.ts";
import { refreshTrends } from "../../src/services/trends/scoring.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";

const ADMIN_SCOPES = "read write admin:read admin:write";

/** A loopback site with one article carrying OpenGraph tags (the link that trends). */
async function startSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url === "/article") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><title>Fallback</title>
        <meta property="og:title" content="Gannets dive deep">
        <meta property="og:description" content="Seabirds at sea."></head><body></body></html>`);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("admin trends review", () => {
  let s: TestServer;
  let site: Awaited<ReturnType<typeof startSite>>;
  let ada: TestUser; // Admin: Manage Taxonomies, wants the mail
  let otto: TestUser; // Admin who turned the trends mail off
  let monty: TestUser; // Moderator: no Manage Taxonomies
  let posters: TestUser[];
  let statusId: string;
  let tagId: string;
  let cardId: string;
  let articleUrl: string;

  const get = (path: string, token = ada.token) => s.request(path, { token });
  const post = (path: string, token = ada.token) => s.request(path, { method: "POST", token, json: {} });
  const publicIds = async (kind: "tags" | "statuses" | "links") => {
    const r = await s.request(`/api/v1/trends/${kind}`);
    assert.equal(r.status, 200);
    return (r.body as { id?: string; url: string }[]).map((x) => (kind === "links" ? x.url : x.id));
  };

  before(async () => {
    site = await startSite();
    articleUrl = `${site.url}/article`;
    s = await startTestServer({ ALLOWED_PRIVATE_ADDRESSES: "127.0.0.1,::1" });
    ada = await s.createUser("ada", { role: "Admin", scopes: ADMIN_SCOPES });
    otto = await s.createUser("otto", { role: "Admin", scopes: ADMIN_SCOPES });
    await s.ctx.repos.users.update(otto.user.id, {
      settings: JSON.stringify({ notificationEmails: { trends: false } }),
    });
    monty = await s.createUser("monty", { role: "Moderator", scopes: ADMIN_SCOPES });
    posters = [await s.createUser("pia"), await s.createUser("quin"), await s.createUser("rob")];
    // Only posts of accounts in the directory trend (Mastodon's `discoverable`).
    for (const u of posters) {
      const r = await s.request("/api/v1/accounts/update_credentials", {
        method: "PATCH",
        token: u.token,
        json: { discoverable: true },
      });
      assert.equal(r.status, 200);
    }
    // Real engagement: three accounts use the hashtag and share the link; two of them favourite
    // and boost a post of the first.
    for (const u of posters) {
      const r = await s.request("/api/v1/statuses", {
        method: "POST",
        token: u.token,
        json: { status: `Diving today #Seabirds ${articleUrl}`, visibility: "public" },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const popular = await s.request("/api/v1/statuses", {
      method: "POST",
      token: posters[0].token,
      json: { status: "A gannet hit the water at 90 km/h", visibility: "public" },
    });
    statusId = popular.body.id;
    for (const u of posters.slice(1)) {
      for (const action of ["favourite", "reblog"]) {
        assert.equal((await post(`/api/v1/statuses/${statusId}/${action}`, u.token)).status, 200);
      }
    }
    await s.settle();
    await refreshTrends(s.ctx);
  });
  after(async () => {
    await s?.close();
    await site?.close();
  });

  it("lists every candidate to staff, none of them public before review", async () => {
    const tags = await get("/api/v1/admin/trends/tags");
    assert.equal(tags.status, 200, JSON.stringify(tags.body));
    const tag = tags.body.find((t: { name: string }) => t.name === "Seabirds");
    assert.ok(tag, JSON.stringify(tags.body));
    tagId = tag.id;
    assert.equal(tag.requires_review, true);
    assert.equal(tag.trendable, false);
    assert.equal(tag.usable, true);
    assert.equal(tag.history.length, 7);
    assert.equal(tag.history[0].accounts, "3");

    const statuses = await get("/api/v1/admin/trends/statuses");
    assert.equal(statuses.status, 200);
    const status = statuses.body.find((x: { id: string }) => x.id === statusId);
    assert.ok(status, JSON.stringify(statuses.body.map((x: { id: string }) => x.id)));
    assert.equal(status.requires_review, true);
    assert.equal(status.account.username, "pia");

    const links = await get("/api/v1/admin/trends/links");
    assert.equal(links.status, 200);
    const link = links.body.find((x: { url: string }) => x.url === articleUrl);
    assert.ok(link, JSON.stringify(links.body));
    cardId = link.id;
    assert.equal(link.title, "Gannets dive deep");
    assert.equal(link.requires_review, true);
    assert.equal(link.history.length, 7);
    assert.equal(link.history[0].uses, "3");

    // Offset paging with a Link header, as Mastodon's trends lists.
    const first = await get("/api/v1/admin/trends/tags?limit=1");
    assert.equal(first.body.length, 1);
    assert.match(first.headers.get("link") ?? "", /offset=1>; rel="next"/);

    assert.deepEqual(await publicIds("tags"), []);
    assert.deepEqual(await publicIds("statuses"), []);
    assert.deepEqual(await publicIds("links"), []);
  });

  it("mails one digest of new candidates to staff with Manage Taxonomies who want it, once", async () => {
    const before = s.ctx.mailer.recent.length;
    // With review off for every kind nothing is announced.
    const off = { ...s.ctx.config, trends: { enabled: true, review: { tags: false, statuses: false, links: false } } };
    assert.deepEqual(await noticeTrendsForReview({ ...s.ctx, config: off }), {
      tags: [],
      statuses: [],
      links: [],
      sentTo: [],
    });
    assert.equal(s.ctx.mailer.recent.length, before);

    const notice = await noticeTrendsForReview(s.ctx);
    assert.deepEqual(notice.tags, [tagId]);
    assert.deepEqual(notice.statuses, [statusId]);
    assert.deepEqual(notice.links, [cardId]);
    assert.deepEqual(notice.sentTo, [ada.user.email]);
    const mails = s.ctx.mailer.recent.slice(before);
    assert.equal(mails.length, 1);
    assert.equal(mails[0].to, ada.user.email);
    assert.match(mails[0].subject, /New trends up for review/);
    assert.match(mails[0].text, /#Seabirds/);
    assert.match(mails[0].text, new RegExp(articleUrl));
    assert.match(mails[0].text, new RegExp(`@pia: \\S+/${statusId}`));

    // Announced: the next run has nothing new to say.
    assert.deepEqual((await noticeTrendsForReview(s.ctx)).sentTo, []);
    assert.equal(s.ctx.mailer.recent.length, before + 1);
    const publishers = await get("/api/v1/admin/trends/links/publishers");
    assert.equal(publishers.status, 200);
    const site127 = publishers.body.find((p: { domain: string }) => p.domain === "127.0.0.1");
    assert.ok(site127?.requested_review_at, JSON.stringify(publishers.body));
    assert.equal(site127.requires_review, true);
  });

  it("approves and rejects hashtags and posts: the public lists follow at once, and the log says so", async () => {
    const approved = await post(`/api/v1/admin/trends/tags/${tagId}/approve`);
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.trendable, true);
    assert.equal(approved.body.requires_review, false);
    assert.deepEqual(await publicIds("tags"), [tagId]);

    const approvedStatus = await post(`/api/v1/admin/trends/statuses/${statusId}/approve`);
    assert.equal(approvedStatus.status, 200);
    assert.equal(approvedStatus.body.id, statusId);
    assert.equal(approvedStatus.body.requires_review, false);
    assert.deepEqual(await publicIds("statuses"), [statusId]);

    const rejected = await post(`/api/v1/admin/trends/tags/${tagId}/reject`);
    assert.equal(rejected.body.trendable, false);
    assert.deepEqual(await publicIds("tags"), []);
    await post(`/api/v1/admin/trends/statuses/${statusId}/reject`);
    assert.deepEqual(await publicIds("statuses"), []);

    const log = await get("/api/v1/admin/action_logs?limit=4");
    assert.deepEqual(
      log.body.map((e: { action: string; target_type: string; target_id: string }) => [
        e.action,
        e.target_type,
        e.target_id,
      ]),
      [
        ["reject", "Status", statusId],
        ["reject", "Tag", tagId],
        ["approve", "Status", statusId],
        ["approve", "Tag", tagId],
      ],
    );
    assert.equal(log.body[3].summary, "@ada approved the hashtag #Seabirds for trends");
  });

  it("lets a publisher's undecided links trend, and a link's own decision wins", async () => {
    const publishers = await get("/api/v1/admin/trends/links/publishers");
    const publisher = publishers.body.find((p: { domain: string }) => p.domain === "127.0.0.1");
    const approved = await post(`/api/v1/admin/trends/links/publishers/${publisher.id}/approve`);
    assert.equal(approved.status, 200);
    assert.equal(approved.body.trendable, true);
    assert.equal(approved.body.requires_review, false);
    assert.ok(approved.body.reviewed_at);
    assert.deepEqual(await publicIds("links"), [articleUrl]);
    const links = await get("/api/v1/admin/trends/links");
    assert.equal(links.body.find((x: { id: string }) => x.id === cardId).requires_review, false);

    await post(`/api/v1/admin/trends/links/publishers/${publisher.id}/reject`);
    assert.deepEqual(await publicIds("links"), []);
    const own = await post(`/api/v1/admin/trends/links/${cardId}/approve`);
    assert.equal(own.status, 200);
    assert.equal(own.body.url, articleUrl);
    assert.deepEqual(await publicIds("links"), [articleUrl]);
    await post(`/api/v1/admin/trends/links/${cardId}/reject`);
    assert.deepEqual(await publicIds("links"), []);

    const log = await get("/api/v1/admin/action_logs?limit=4");
    assert.deepEqual(
      log.body.map((e: { action: string; target_type: string }) => `${e.action} ${e.target_type}`),
      ["reject PreviewCard", "approve PreviewCard", "reject PreviewCardProvider", "approve PreviewCardProvider"],
    );
  });

  it("refuses callers without Manage Taxonomies or the admin scope, and unknown or private records", async () => {
    const readOnly = (await s.createUser("rita", { role: "Admin", scopes: "read admin:read" })).token;
    const nobody = (await s.createUser("nina", { scopes: ADMIN_SCOPES })).token;
    for (const token of [monty.token, nobody]) {
      assert.equal((await get("/api/v1/admin/trends/tags", token)).status, 403);
      assert.equal((await post(`/api/v1/admin/trends/tags/${tagId}/approve`, token)).status, 403);
    }
    assert.equal((await get("/api/v1/admin/trends/links", readOnly)).status, 200);
    assert.equal((await post(`/api/v1/admin/trends/links/${cardId}/approve`, readOnly)).status, 403);
    assert.equal((await s.request("/api/v1/admin/trends/statuses")).status, 401);
    assert.equal((await post("/api/v1/admin/trends/tags/999999999/approve")).status, 404);
    const secret = await s.request("/api/v1/statuses", {
      method: "POST",
      token: posters[1].token,
      json: { status: "followers only", visibility: "private" },
    });
    const r = await post(`/api/v1/admin/trends/statuses/${secret.body.id}/approve`);
    assert.equal(r.status, 404);
    assert.equal(r.body.error, "Record not found");
    // Nothing refused was logged, and no mail went to those without the permission.
    assert.ok(s.ctx.mailer.recent.every((m) => m.to !== monty.user.email && m.to !== otto.user.email));
  });

  it("asks for a review only of what would enter the public top three", async () => {
    const r = await s.request("/api/v1/statuses", {
      method: "POST",
      token: posters[0].token,
      json: { status: "#TopOne #TopTwo #TopThree #Runner" },
    });
    assert.equal(r.status, 200);
    const ids = new Map<string, string>();
    for (const name of ["topone", "toptwo", "topthree", "runner"]) {
      const tag = await s.ctx.repos.statuses.getTag(name);
      assert.ok(tag);
      ids.set(name, tag.id);
    }
    for (const name of ["topone", "toptwo", "topthree"]) {
      assert.equal((await post(`/api/v1/admin/trends/tags/${ids.get(name)}/approve`)).status, 200);
    }
    // Scores as the trends job would write them (its scoring has its own tests).
    const scored = (runner: number) =>
      s.ctx.repos.trends.replaceTags(
        [
          { tag_id: ids.get("topone") as string, score: 10, rank: 1 },
          { tag_id: ids.get("toptwo") as string, score: 9, rank: 2 },
          { tag_id: ids.get("topthree") as string, score: 8, rank: 3 },
          { tag_id: ids.get("runner") as string, score: runner, rank: 4 },
        ],
        new Date().toISOString(),
        s.ctx.config.trends.review.tags,
      );
    await scored(5);
    await refreshAllowed(s.ctx);
    assert.deepEqual((await noticeTrendsForReview(s.ctx)).tags, []);
    await scored(8.5);
    await refreshAllowed(s.ctx);
    const notice = await noticeTrendsForReview(s.ctx);
    assert.deepEqual(notice.tags, [ids.get("runner")]);
    assert.ok(notice.sentTo.includes(ada.user.email));
    assert.ok(!notice.sentTo.includes(otto.user.email) && !notice.sentTo.includes(monty.user.email));
  });
});
