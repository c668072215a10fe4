import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { follow } from "../../src/services/follows/follow.ts";
import { addAccounts, createList } from "../../src/services/lists/lists.ts";
import { block, mute } from "../../src/services/relationships/blocks-mutes.ts";
import { blockDomain } from "../../src/services/relationships/domain-blocks.ts";
import { bookmark } from "../../src/services/statuses/actions.ts";
import { pollMedia } from "../helpers/media-files.ts";
import { startTestServer, type TestServer, type TestUser } from "../helpers/server.ts";
import { alertText, lastMailTo, type Page, textOf, WebClient } from "../helpers/web.ts";

/** A browser signed in as `user` through the sign-in form. */
async function signIn(s: TestServer, user: TestUser): Promise<WebClient> {
  const web = new WebClient(s);
  const form = await web.get("/auth/sign_in");
  const done = await web.submit(form, "/auth/sign_in", { email: user.user.email, password: user.password });
  assert.equal(done.status, 302, done.body);
  return web;
}

const csv = (text: string) => new Blob([text], { type: "text/csv" });

describe("settings: export, archive, import, aliases and moving", () => {
  let s: TestServer;
  let dom: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let erin: TestUser;
  let aliceWeb: WebClient;
  let bobWeb: WebClient;
  let bobPostUri: string;

  before(async () => {
    s = await startTestServer();
    dom = s.ctx.config.localDomain;
    [alice, bob, carol, dave, erin] = await Promise.all(
      ["alice", "bob", "carol", "dave", "erin"].map((u) => s.createUser(u)),
    );
    const ctx = s.ctx;
    await follow(ctx, alice.account, bob.account.id, { showReblogs: false, notify: true, languages: ["en", "fr"] });
    await follow(ctx, alice.account, carol.account.id, {});
    await block(ctx, alice.account, dave.account.id);
    await mute(ctx, alice.account, erin.account.id, { notifications: false, duration: 0 });
    await blockDomain(ctx, alice.account, "spam.example");
    const post = await s.request("/api/v1/statuses", { token: bob.token, json: { status: "Bookmark me" } });
    bobPostUri = post.body.uri;
    await bookmark(ctx, alice.account, post.body.id);
    const list = await createList(ctx, alice.account, { title: "Friends, close" });
    await addAccounts(ctx, alice.account, list.id, [bob.account.id, carol.account.id]);
    aliceWeb = await signIn(s, alice);
    bobWeb = await signIn(s, bob);
  });
  after(() => s.close());

  it("shows the counts and serves each CSV export in Mastodon's format", async () => {
    const page = await aliceWeb.get("/settings/export");
    assert.equal(page.status, 200);
    const row = (label: string) =>
      page.doc.querySelectorAll("tbody tr").find((tr) => tr.querySelector("th")?.text.trim() === label);
    assert.equal(row("Follows")?.querySelectorAll("td")[0].text, "2");
    assert.equal(row("You block")?.querySelectorAll("td")[0].text, "1");
    assert.equal(row("Bookmarks")?.querySelectorAll("td")[0].text, "1");
    assert.ok(page.doc.querySelector('a[href="/settings/exports/follows.csv"]'));

    const get = async (name: string) => {
      const r = await aliceWeb.request(`/settings/exports/${name}.csv`);
      assert.equal(r.status, 200);
      assert.match(r.headers.get("content-type") ?? "", /^text\/csv/);
      assert.match(r.headers.get("content-disposition") ?? "", /^attachment; filename="[a-z_]+\.csv"$/);
      return r.body;
    };
    assert.equal(
      await get("follows"),
      `Account address,Show boosts,Notify on new posts,Languages\ncarol@${dom},true,false,\nbob@${dom},false,true,"en, fr"\n`,
    );
    assert.equal(await get("blocks"), `dave@${dom}\n`);
    assert.equal(await get("mutes"), `Account address,Hide notifications\nerin@${dom},false\n`);
    assert.equal(await get("domain_blocks"), "spam.example\n");
    assert.equal(await get("bookmarks"), `${bobPostUri}\n`);
    assert.equal(await get("lists"), `"Friends, close",bob@${dom}\n"Friends, close",carol@${dom}\n`);
    // Each user gets their own data; signed out, the sign-in form.
    assert.equal((await bobWeb.request("/settings/exports/blocks.csv")).body, "");
    const anonymous = await new WebClient(s).get("/settings/exports/follows.csv");
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.headers.get("location") ?? "", /^\/auth\/sign_in\?return_to=/);
    assert.equal((await aliceWeb.get("/settings/exports/passwords.csv")).status, 404);
  });

  it("builds the archive in a job: actor, outbox with media, likes, bookmarks; one a week; owner only", async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#336699" } })
      .png()
      .toBuffer();
    const f = new FormData();
    f.append("file", new Blob([new Uint8Array(png)]), "a.png");
    const media = await s.request("/api/v2/media", { method: "POST", token: alice.token, multipart: f });
    await pollMedia(s, alice.token, media.body.id);
    const post = await s.request("/api/v1/statuses", {
      token: alice.token,
      json: { status: "Hello <archive>", media_ids: [media.body.id], visibility: "private" },
    });
    assert.equal(post.status, 200);
    await s.request(`/api/v1/statuses/${post.body.id}/favourite`, { method: "POST", token: alice.token });

    const page = await aliceWeb.get("/settings/export");
    const requested = await aliceWeb.submit(page, "/settings/export");
    assert.equal(requested.status, 200);
    assert.match(textOf(requested.doc, ".notice"), /being prepared/);
    assert.match(textOf(requested.doc, "#archives"), /Being prepared/);
    assert.ok(requested.doc.querySelector("#archives[data-refresh]"), "the list refreshes itself while preparing");
    await s.settle();

    const ready = await aliceWeb.get("/settings/export");
    const link = ready.doc.querySelector('#archives a[href^="/settings/export/archive/"]');
    assert.ok(link, "a download link once the job ran");
    assert.equal(ready.doc.querySelector("#archives[data-refresh]"), null);
    assert.match(ready.doc.querySelector("main")?.text ?? "", /ask for a new archive on/);
    const href = link.getAttribute("href") ?? "";
    const res = await fetch(`${s.url}${href}`, { headers: { cookie: cookieOf(aliceWeb) } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/zip");
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const actor = JSON.parse(strFromU8(files["actor.json"]));
    assert.equal(actor.type, "Person");
    assert.equal(actor.id, alice.account.uri);
    assert.equal(actor.preferredUsername, "alice");
    assert.equal(actor.outbox, "outbox.json");
    assert.equal(actor.likes, "likes.json");
    const outbox = JSON.parse(strFromU8(files["outbox.json"]));
    assert.equal(outbox.type, "OrderedCollection");
    assert.equal(outbox.totalItems, 1);
    const [create] = outbox.orderedItems;
    assert.equal(create.type, "Create");
    assert.equal(create.actor, alice.account.uri);
    assert.equal(create.object.type, "Note");
    assert.equal(create.object.id, post.body.uri);
    assert.match(create.object.content, /Hello &lt;archive&gt;/);
    const attachment = [create.object.attachment].flat()[0];
    assert.match(attachment.url, /^media_attachments\/files\//);
    assert.ok(files[attachment.url]?.length > 0, "the media file is in the archive at the attachment's path");
    assert.deepEqual(JSON.parse(strFromU8(files["likes.json"])).orderedItems, [post.body.uri]);
    assert.deepEqual(JSON.parse(strFromU8(files["bookmarks.json"])).orderedItems, [bobPostUri]);
    assert.match(lastMailTo(s, alice.user.email).subject, /archive is ready/);

    const again = await aliceWeb.submit(ready, "/settings/export").catch(() => undefined);
    assert.equal(again, undefined, "no request form within a week");
    const forced = await aliceWeb.request("/settings/export", {
      method: "POST",
      form: { authenticity_token: csrfOf(ready) },
    });
    assert.equal(forced.status, 429);
    assert.match(textOf(forced.doc, ".notice"), /ask for a new archive on/);
    assert.equal((await bobWeb.get(href)).status, 404, "another user's archive is not found");
    const [stored] = await s.ctx.repos.backups.ofUser(alice.user.id, 1);
    assert.ok(stored.blobKey);
    assert.equal((await s.request(`/system/${stored.blobKey}`)).status, 404, "archives are not served as public files");
    assert.equal((await aliceWeb.get("/settings/export/archive/12345")).status, 404);
  });

  it("imports follows (merge) through confirmation and a job, with progress and failures", async () => {
    const web = await signIn(s, erin);
    const index = await web.get("/settings/imports");
    assert.equal(index.status, 200);
    const uploaded = await web.submit(
      index,
      "/settings/imports",
      { type: "following", mode: "merge" },
      {
        files: {
          data: Object.assign(
            csv(
              `Account address,Show boosts,Notify on new posts,Languages\nbob@${dom},false,true,"de, en"\n@carol,true,false,\n\nnobody@${dom},true,false,\n`,
            ),
            { name: "following_accounts.csv" },
          ),
        },
      },
    );
    assert.equal(uploaded.status, 303, uploaded.body);
    const confirm = await web.follow(uploaded);
    assert.match(textOf(confirm.doc, "main"), /import 3 rows from following_accounts\.csv as Following list/);
    const id = (uploaded.headers.get("location") ?? "").split("/").pop() ?? "";
    // Someone else cannot see nor confirm it; a bad CSRF token is refused.
    assert.equal((await bobWeb.get(`/settings/imports/${id}`)).status, 404);
    const forged = await web.request(`/settings/imports/${id}/confirm`, {
      method: "POST",
      form: { authenticity_token: "forged" },
    });
    assert.equal(forged.status, 422);
    const confirmed = await web.submit(confirm, `/settings/imports/${id}/confirm`);
    assert.equal(confirmed.status, 303);
    await s.settle();
    const progress = await web.follow(confirmed);
    assert.equal(textOf(progress.doc, ".data-state"), "Finished");
    assert.match(textOf(progress.doc, "#import-progress"), /3 of 3 processed, 2 imported/);
    assert.equal(progress.doc.querySelector("#import-progress[data-refresh]"), null);
    const toBob = await s.ctx.repos.follows.getFollow(erin.account.id, bob.account.id);
    assert.equal(toBob?.showReblogs, false);
    assert.equal(toBob?.notify, true);
    assert.deepEqual(toBob?.languages, ["de", "en"]);
    assert.ok(await s.ctx.repos.follows.getFollow(erin.account.id, carol.account.id));
    const failures = await web.request(`/settings/imports/${id}/failures.csv`);
    assert.equal(failures.status, 200);
    assert.match(failures.headers.get("content-disposition") ?? "", /following_accounts_failures\.csv/);
    assert.equal(
      failures.body,
      `Account address,Show boosts,Notify on new posts,Languages\nnobody@${dom},true,false,\n`,
    );
    assert.equal((await bobWeb.request(`/settings/imports/${id}/failures.csv`)).status, 404);
    const list = await web.get("/settings/imports");
    assert.match(
      textOf(list.doc, "#imports"),
      /Following list\s*Finished.*3 of 3 processed, 2 imported\s*Download the 1 failed rows/,
    );
  });

  it("imports blocks in overwrite mode: blocks not in the file are lifted", async () => {
    await block(s.ctx, carol.account, dave.account.id);
    const web = await signIn(s, carol);
    const index = await web.get("/settings/imports");
    const uploaded = await web.submit(
      index,
      "/settings/imports",
      { type: "blocking", mode: "overwrite" },
      { files: { data: Object.assign(csv(`erin@${dom}\n`), { name: "blocked_accounts.csv" }) } },
    );
    const confirm = await web.follow(uploaded);
    assert.match(textOf(confirm.doc, "main"), /What you have now and the file does not list is undone/);
    const id = (uploaded.headers.get("location") ?? "").split("/").pop() ?? "";
    await web.submit(confirm, `/settings/imports/${id}/confirm`);
    await s.settle();
    const rel = s.ctx.repos.relationships;
    assert.equal((await rel.blocksPage(carol.account.id, { limit: 10 })).length, 1);
    const [only] = await rel.blocksPage(carol.account.id, { limit: 10 });
    assert.equal(only.targetAccountId, erin.account.id);
    const done = await web.get(`/settings/imports/${id}`);
    assert.match(textOf(done.doc, "#import-progress"), /1 of 1 processed, 1 imported/);
    assert.match(textOf(done.doc, "#import-progress"), /Failures\s*None/);
  });

  it("imports lists in overwrite mode: lists not in the file go, members are followed and listed", async () => {
    const index = await aliceWeb.get("/settings/imports");
    const uploaded = await aliceWeb.submit(
      index,
      "/settings/imports",
      { type: "lists", mode: "overwrite" },
      { files: { data: Object.assign(csv(`Readers,@bob\nReaders,erin@${dom}\n`), { name: "lists.csv" }) } },
    );
    const id = (uploaded.headers.get("location") ?? "").split("/").pop() ?? "";
    await aliceWeb.submit(await aliceWeb.follow(uploaded), `/settings/imports/${id}/confirm`);
    await s.settle();
    const lists = await s.ctx.repos.lists.listsOf(alice.account.id);
    assert.deepEqual(
      lists.map((l) => l.title),
      ["Readers"],
    );
    const members = await s.ctx.repos.lists.membersPage(lists[0].id, null);
    assert.deepEqual(members.map((m) => m.accountId).sort(), [bob.account.id, erin.account.id].sort());
    assert.ok(await s.ctx.repos.follows.getFollow(alice.account.id, erin.account.id), "followed to be listed");
  });

  it("refuses bad files with the error next to the field", async () => {
    const index = await bobWeb.get("/settings/imports");
    const upload = (type: string, text: string) =>
      bobWeb.submit(
        index,
        "/settings/imports",
        { type },
        { files: { data: Object.assign(csv(text), { name: "x.csv" }) } },
      );
    const bad = await upload("blocking", 'a@b.example,"unterminated\n');
    assert.equal(bad.status, 422);
    assert.match(alertText(bad.doc) ?? "", /not a valid CSV file/);
    assert.equal(bad.doc.querySelector("#import-data")?.getAttribute("aria-invalid"), "true");
    assert.match(bad.doc.querySelector("#import-data")?.getAttribute("aria-describedby") ?? "", /import-data-error/);
    const many = await upload("blocking", "someone@example.com\n".repeat(20_001));
    assert.equal(many.status, 422);
    assert.match(alertText(many.doc) ?? "", /more than 20,000 rows/);
    const wrong = await upload("following", "#domain\nexample.com\n");
    assert.match(alertText(wrong.doc) ?? "", /columns of this import type/);
    const empty = await upload("bookmarks", "\n\n");
    assert.match(alertText(empty.doc) ?? "", /holds no data/);
    assert.deepEqual(await s.ctx.repos.bulkImports.recent(bob.account.id, 10), [], "nothing stored");
    // A cancelled unconfirmed import is gone.
    const ok = await upload("domain_blocking", "#domain\nads.example\n");
    const confirm = await bobWeb.follow(ok);
    const id = (ok.headers.get("location") ?? "").split("/").pop() ?? "";
    const cancelled = await bobWeb.submit(confirm, `/settings/imports/${id}/delete`);
    assert.match(textOf(cancelled.doc, ".notice"), /cancelled/);
    assert.equal((await bobWeb.get(`/settings/imports/${id}`)).status, 404);
  });

  it("adds and removes aliases, and moves to an account that lists this one", async () => {
    const [olduser, newuser] = await Promise.all([s.createUser("olduser"), s.createUser("newuser")]);
    const oldWeb = await signIn(s, olduser);
    const newWeb = await signIn(s, newuser);
    // The move is refused while the new account does not list the old one.
    let page = await oldWeb.get("/settings/migration");
    assert.match(textOf(page.doc, "#redirect-state"), /does not redirect/);
    let moved = await oldWeb.submit(page, "/settings/migration", {
      acct: `newuser@${dom}`,
      current_password: olduser.password,
    });
    assert.equal(moved.status, 422);
    assert.match(alertText(moved.doc) ?? "", /does not list this account as an alias/);

    page = await newWeb.get("/settings/aliases");
    const unknown = await newWeb.submit(page, "/settings/aliases", { acct: "nobody" });
    assert.equal(unknown.status, 422);
    assert.match(alertText(unknown.doc) ?? "", /No account/);
    const added = await newWeb.submit(page, "/settings/aliases", { acct: "@olduser" });
    assert.match(textOf(added.doc, ".notice"), /Alias created/);
    assert.match(textOf(added.doc, ".data-list"), new RegExp(`olduser@${dom.replace(/[.]/g, "\\.")}`));
    const removed = await newWeb.submit(added, "/settings/aliases/delete");
    assert.match(textOf(removed.doc, "main"), /No aliases/);
    await newWeb.submit(removed, "/settings/aliases", { acct: `olduser@${dom}` });

    await s.follow(dave, olduser);
    page = await oldWeb.get("/settings/migration");
    const wrong = await oldWeb.submit(page, "/settings/migration", {
      acct: `newuser@${dom}`,
      current_password: "nope",
    });
    assert.equal(wrong.status, 422);
    assert.match(alertText(wrong.doc) ?? "", /password is wrong/);
    assert.equal(wrong.doc.querySelector("#migration-password")?.getAttribute("aria-invalid"), "true");
    const forged = await oldWeb.request("/settings/migration", {
      method: "POST",
      form: { acct: `newuser@${dom}`, current_password: olduser.password, authenticity_token: "x" },
    });
    assert.equal(forged.status, 422);
    moved = await oldWeb.submit(page, "/settings/migration", {
      acct: `newuser@${dom}`,
      current_password: olduser.password,
    });
    assert.equal(moved.status, 200, moved.body);
    assert.match(textOf(moved.doc, ".notice"), /now redirects to newuser@/);
    assert.match(textOf(moved.doc, "#redirect-state"), /redirects to newuser@/);
    assert.match(textOf(moved.doc, "main"), /You moved recently/);
    assert.equal((await s.ctx.repos.accounts.getById(olduser.account.id))?.movedToAccountId, newuser.account.id);
    await s.settle();
    assert.ok(await s.ctx.repos.follows.getFollow(dave.account.id, newuser.account.id), "local followers moved along");

    // Cancelling the redirect; another move within 30 days is refused.
    const cancelled = await oldWeb.submit(moved, "/settings/migration/cancel");
    assert.match(textOf(cancelled.doc, ".notice"), /redirect was cancelled/);
    assert.equal((await s.ctx.repos.accounts.getById(olduser.account.id))?.movedToAccountId, null);
    const again = await oldWeb.request("/settings/migration", {
      method: "POST",
      form: { acct: `newuser@${dom}`, current_password: olduser.password, authenticity_token: csrfOf(cancelled) },
    });
    assert.equal(again.status, 429);
    assert.match(alertText(again.doc) ?? "", /cannot move again yet/);
  });
});

/** The session cookie of a client, for requests made with fetch. */
function cookieOf(web: WebClient): string {
  return [...web.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

/** The CSRF token a page's forms carry. */
function csrfOf(page: Page): string {
  return page.doc.querySelector('input[name="authenticity_token"]')?.getAttribute("value") ?? "";
}
