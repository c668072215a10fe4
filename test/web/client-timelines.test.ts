import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import sharp from "sharp";
import { LIVE_FEED_SETTING } from "../../src/services/feeds/live-feed-access.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { type Page, signIn, type WebClient } from "../helpers/web.ts";

interface StatusJson {
  id: string;
  content: string;
}

describe("web client timelines: home, live feeds, hashtag, lists, bookmarks, favourites", () => {
  let s: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let web: WebClient;
  const posts: Record<string, StatusJson> = {};
  let listId = "";

  const ok = async <T = any>(u: TestUser, path: string, method = "GET", json?: unknown): Promise<T> => {
    const r = await s.request(path, { method, token: u.token, json });
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body as T;
  };
  const post = (u: TestUser, json: Record<string, unknown>) => ok<StatusJson>(u, "/api/v1/statuses", "POST", json);
  /** The posts of a page's timeline, as ids in the order shown. */
  const shownIds = (page: Page) =>
    page.doc.querySelectorAll("ul.statuses[data-timeline] > li[data-id]").map((li) => li.getAttribute("data-id"));
  const articleOf = (page: Page, id: string) => page.doc.querySelector(`article.status[data-id="${id}"]`);

  before(async () => {
    s = await startTestServer();
    alice = await s.createUser("alice");
    bob = await s.createUser("bob");
    carol = await s.createUser("carol");
    await s.follow(alice, bob);
    const list = await ok(alice, "/api/v1/lists", "POST", { title: "Friends" });
    listId = list.id;
    await ok(alice, `/api/v1/lists/${listId}/accounts`, "POST", { account_ids: [bob.account.id] });
    await ok(alice, "/api/v2/filters", "POST", {
      title: "Fruit hidden",
      context: ["home", "public"],
      filter_action: "hide",
      keywords_attributes: [{ keyword: "kiwi" }],
    });
    await ok(alice, "/api/v2/filters", "POST", {
      title: "Mango warning",
      context: ["home", "public"],
      filter_action: "warn",
      keywords_attributes: [{ keyword: "mango" }],
    });
    const form = new FormData();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#3366cc" } })
      .png()
      .toBuffer();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "a.png");
    form.append("description", "A blue rectangle");
    const media = await s.request("/api/v1/media", { method: "POST", token: bob.token, multipart: form });
    assert.equal(media.status, 200, JSON.stringify(media.body));

    for (let i = 0; i < 18; i++) posts[`filler${i}`] = await post(bob, { status: `Filler number ${i}` });
    posts.tagged = await post(bob, { status: "Hello #gannettest world" });
    posts.cw = await post(bob, { status: "Behind the warning", spoiler_text: "Spoilers ahead" });
    posts.sensitive = await post(bob, { status: "A picture", media_ids: [media.body.id], sensitive: true });
    posts.hidden = await post(bob, { status: "I like kiwi a lot" });
    posts.warned = await post(bob, { status: "A ripe mango" });
    posts.carol = await post(carol, { status: "Carol speaks locally" });
    await s.settle();
    web = await signIn(s, alice);
  });
  after(() => s.close());

  it("sends an anonymous visitor of /home to sign in", async () => {
    const r = await s.request("/home");
    assert.equal(r.status, 302);
    assert.match(r.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=%2Fhome$/);
  });

  it("shows the home timeline the API gives: same posts, same order; filters, warnings and sensitive media", async () => {
    const page = await web.get("/home");
    assert.equal(page.status, 200);
    const api = await ok<StatusJson[]>(alice, "/api/v1/timelines/home?limit=40");
    assert.deepEqual(
      shownIds(page),
      api.map((x) => x.id),
    );
    assert.ok(shownIds(page).includes(posts.tagged.id));
    assert.ok(!shownIds(page).includes(posts.carol.id), "not followed: not on home");
    // hide: left out; warn: behind a notice naming the filter.
    assert.equal(articleOf(page, posts.hidden.id), null);
    const warned = page.doc.querySelector(`li[data-id="${posts.warned.id}"] > details.filtered`);
    assert.ok(warned, "the warned post is in details.filtered");
    assert.match(warned.querySelector("summary")?.text ?? "", /Mango warning/);
    assert.ok(warned.querySelector(`article.status[data-id="${posts.warned.id}"]`));
    // The content warning and the sensitive media need a click.
    const cw = articleOf(page, posts.cw.id)?.querySelector("details.cw");
    assert.match(cw?.querySelector("summary")?.text ?? "", /Spoilers ahead/);
    assert.match(cw?.querySelector(".content")?.text ?? "", /Behind the warning/);
    const sensitive = articleOf(page, posts.sensitive.id)?.querySelector("details.sensitive");
    assert.ok(
      sensitive?.querySelector('img[alt="A blue rectangle"]'),
      "the media is in details.sensitive with its alt text",
    );
    // The list is the script's: home stream, the menu marks home.
    const ul = page.doc.querySelector("ul.statuses[data-timeline=home]");
    assert.equal(ul?.getAttribute("data-stream"), "user");
    assert.equal(page.doc.querySelector('.client-nav a[aria-current="page"]')?.getAttribute("href"), "/home");
    assert.ok(page.doc.querySelector('script[src^="/assets/client-timelines.js"]'));
  });

  it("marks where the home marker stands, and reads on with ?max_id= without script", async () => {
    const home = await ok<StatusJson[]>(alice, "/api/v1/timelines/home?limit=40");
    const read = home[3];
    await ok(alice, "/api/v1/markers", "POST", { home: { last_read_id: read.id } });
    const page = await web.get("/home");
    const items = page.doc.querySelectorAll("ul.statuses > li");
    const at = items.findIndex((li) => li.classList.contains("read-marker"));
    assert.ok(at > 0, "a separator stands in the list");
    assert.match(items[at].text, /Read up to here/);
    assert.equal(items[at + 1].getAttribute("data-id"), read.id, "the separator stands above the last-read post");
    assert.equal(page.doc.querySelector("ul.statuses")?.getAttribute("data-last-read"), read.id);

    const older = await web.get(`/home?max_id=${home[4].id}`);
    assert.deepEqual(
      shownIds(older),
      home.slice(5).map((x) => x.id),
    );
    assert.equal(older.doc.querySelector("li.read-marker"), null);
    assert.ok(!older.doc.querySelector("ul.statuses")?.hasAttribute("data-stream"), "no live updates on older pages");
  });

  it("shows the local and federated timelines and a hashtag with its follow button", async () => {
    for (const path of ["/web/public/local", "/web/public"]) {
      const page = await web.get(path);
      assert.equal(page.status, 200, path);
      const api = await ok<StatusJson[]>(
        alice,
        `/api/v1/timelines/public?limit=20${path.endsWith("local") ? "&local=true" : ""}`,
      );
      assert.deepEqual(
        shownIds(page),
        api.map((x) => x.id),
        path,
      );
      assert.ok(shownIds(page).includes(posts.carol.id), path);
      assert.equal(articleOf(page, posts.hidden.id), null, "the public context's hide filter applies");
    }
    const local = await web.get("/web/public/local");
    assert.equal(local.doc.querySelector("ul.statuses")?.getAttribute("data-stream"), "public:local");
    assert.equal(
      local.doc.querySelector("ul.statuses")?.getAttribute("data-next"),
      `/api/v1/timelines/public?local=true&limit=20&max_id=${shownIds(local).at(-1)}`,
    );

    let tag = await web.get("/web/tags/gannettest");
    assert.equal(tag.status, 200);
    assert.deepEqual(shownIds(tag), [posts.tagged.id]);
    assert.equal(tag.doc.querySelector("ul.statuses")?.getAttribute("data-stream-tag"), "gannettest");
    let button = tag.doc.querySelector("button.tag-follow");
    assert.equal(button?.getAttribute("aria-pressed"), "false");
    assert.equal(button?.getAttribute("data-tag"), "gannettest");
    await ok(alice, "/api/v1/tags/gannettest/follow", "POST");
    tag = await web.get("/web/tags/gannettest");
    button = tag.doc.querySelector("button.tag-follow");
    assert.equal(button?.getAttribute("aria-pressed"), "true");
    assert.match(button?.text ?? "", /Unfollow #gannettest/);
  });

  it("follows the operator's live feed access, as the API does", async () => {
    await s.ctx.repos.settings.set(LIVE_FEED_SETTING.local, "disabled");
    try {
      const local = await web.get("/web/public/local");
      assert.equal(local.status, 200);
      assert.match(local.doc.querySelector('p.notice[role="alert"]')?.text ?? "", /closed this timeline/);
      assert.deepEqual(shownIds(local), []);
      assert.ok(!local.doc.querySelector("ul.statuses")?.hasAttribute("data-stream"), "no stream for a closed feed");
      assert.deepEqual((await ok(alice, "/api/v1/timelines/public?local=true")) as unknown[], []);
      // The federated page narrows to the readable part (here: remote posts, of which there are none).
      const all = await web.get("/web/public");
      assert.deepEqual(
        shownIds(all),
        (await ok<StatusJson[]>(alice, "/api/v1/timelines/public?limit=20")).map((x) => x.id),
      );
      assert.ok(!shownIds(all).includes(posts.carol.id));
    } finally {
      await s.ctx.repos.settings.set(LIVE_FEED_SETTING.local, "public");
    }
  });

  it("lists the user's lists and shows a list's timeline; another's list is not found", async () => {
    const lists = await web.get("/lists");
    assert.equal(lists.status, 200);
    const link = lists.doc.querySelector(`ul.client-lists a[href="/lists/${listId}"]`);
    assert.equal(link?.text, "Friends");
    assert.ok(lists.doc.querySelector(`button.list-delete[data-list-id="${listId}"]`));
    assert.ok(lists.doc.querySelector("form.list-create input[name=title]"));

    const page = await web.get(`/lists/${listId}`);
    assert.equal(page.status, 200);
    const api = await ok<StatusJson[]>(alice, `/api/v1/timelines/list/${listId}`);
    assert.ok(api.length > 0);
    assert.deepEqual(
      shownIds(page),
      api.map((x) => x.id),
    );
    const ul = page.doc.querySelector("ul.statuses");
    assert.equal(ul?.getAttribute("data-stream"), "list");
    assert.equal(ul?.getAttribute("data-stream-list"), listId);

    const carolList = await ok(carol, "/api/v1/lists", "POST", { title: "Carol's" });
    assert.equal((await web.get(`/lists/${carolList.id}`)).status, 404);
  });

  it("shows bookmarks and favourites, with the API's next link (by the favourite's id)", async () => {
    await ok(alice, `/api/v1/statuses/${posts.cw.id}/bookmark`, "POST");
    const bookmarks = await web.get("/bookmarks");
    assert.equal(bookmarks.status, 200);
    assert.deepEqual(shownIds(bookmarks), [posts.cw.id]);
    assert.ok(!bookmarks.doc.querySelector("ul.statuses")?.hasAttribute("data-next"), "one page only");

    // 21 favourites, oldest post favourited last: the order is the favourites', not the posts'.
    const faved = [...Array(18).keys()].map((i) => posts[`filler${i}`].id);
    faved.push(posts.tagged.id, posts.cw.id, posts.sensitive.id);
    for (const id of [...faved].reverse()) await ok(alice, `/api/v1/statuses/${id}/favourite`, "POST");
    const page = await web.get("/favourites");
    const api = await s.request("/api/v1/favourites?limit=20", { token: alice.token });
    assert.deepEqual(
      shownIds(page),
      (api.body as StatusJson[]).map((x) => x.id),
    );
    assert.equal(shownIds(page).length, 20);
    const next = page.doc.querySelector("ul.statuses")?.getAttribute("data-next") ?? "";
    const link = /<([^>]+)>; rel="next"/.exec(api.headers.get("link") ?? "")?.[1] ?? "";
    const url = new URL(link);
    assert.equal(next, `${url.pathname}${url.search}`);
    const rest = await ok<StatusJson[]>(alice, next);
    assert.deepEqual(
      rest.map((x) => x.id),
      [faved.at(-1)],
      "the first favourited is on the next page",
    );
  });

  let token = "";
  it("carries the session's API token, which works on the API", async () => {
    const page = await web.get("/home");
    token = page.doc.querySelector('meta[name="gannet-token"]')?.getAttribute("content") ?? "";
    assert.ok(token.length > 10);
    const me = await s.request("/api/v1/accounts/verify_credentials", { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, alice.account.id);
  });

  it("the token stops working once the user signs out with the menu's sign-out button", async () => {
    const page = await web.get("/home");
    const out = await web.submit(page, "/auth/sign_out");
    assert.ok(out.status >= 300 && out.status < 400, `sign-out: ${out.status}`);
    assert.equal((await web.get("/home")).status, 302);
    assert.equal((await s.request("/api/v1/accounts/verify_credentials", { token })).status, 401);
  });
});
