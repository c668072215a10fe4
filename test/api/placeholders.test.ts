import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { UNAVAILABLE } from "../../src/http/api/placeholders/entities.ts";
import type { Placeholder } from "../../src/http/api/placeholders/types.ts";
import { PLACEHOLDERS } from "../../src/http/api/placeholders.ts";
import { grantsAny } from "../../src/lib/scopes.ts";
import { type ApiResponse, startTestServer, type TestServer } from "../helpers/server.ts";

const ALL_SCOPES = "read write follow push profile admin:read admin:write";
const INVALID = { error: "The access token is invalid" };
const OUTSIDE = { error: "This action is outside the authorized scopes" };
const USER_REQUIRED = { error: "This method requires an authenticated user" };
const NOT_FOUND = { error: "Record not found" };

/** What a placeholder answers to a valid request, where the table alone does not say it. */
const SPECIAL_STATUS: Record<string, number> = {};

const key = (p: Placeholder) => `${p.method} ${p.path}`;

function expectedStatus(p: Placeholder): number {
  const special = SPECIAL_STATUS[key(p)];
  if (special !== undefined) return special;
  switch (p.answer.kind) {
    case "not-found":
      return 404;
    case "unavailable":
      return 422;
    case "no-content":
      return 204;
    default:
      return 200;
  }
}

/** The path with its parameters filled: the account parameter with `accountId`, others with plausible values. */
function fill(p: Placeholder, accountId: string): string {
  const accountParam = p.account ?? p.existing;
  return p.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    if (name === accountParam) return accountId;
    if (name === "name" || name === "hashtag") return "cats";
    if (name === "year") return "2024";
    if (name === "group_key") return "ungrouped-1";
    if (name === "invite_code") return "abcdef";
    return "1234567";
  });
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

describe("placeholders: every endpoint not built yet", () => {
  let s: TestServer;
  let aliceToken: string;
  let adminToken: string;
  let bobId: string;
  let appToken: string;
  /** Tokens of the admin user, each holding few scopes, to find one a guard refuses. */
  let narrow: { scopes: string[]; token: string }[];

  before(async () => {
    s = await startTestServer();
    aliceToken = (await s.createUser("alice", { scopes: ALL_SCOPES })).token;
    const adminUser = await s.createUser("boss", { role: "Admin", scopes: ALL_SCOPES });
    adminToken = adminUser.token;
    bobId = (await s.createUser("bob")).account.id;
    appToken = await s.appToken(ALL_SCOPES);
    narrow = [];
    for (const scopes of ["push", "profile", "read write follow push"]) {
      narrow.push({
        scopes: scopes.split(" "),
        token: (await s.createUser(`n${narrow.length}`, { role: "Admin", scopes })).token,
      });
    }
  });
  after(() => s.close());

  function call(p: Placeholder, path: string, token?: string): Promise<ApiResponse> {
    return s.request(path, { method: p.method, token, json: WITH_BODY.has(p.method) ? {} : undefined });
  }

  const tokenFor = (p: Placeholder): string | undefined =>
    p.guard.auth === "admin"
      ? adminToken
      : p.guard.auth === "public" || p.guard.auth === "public*"
        ? undefined
        : aliceToken;

  it("has a large table", () => {
    // Endpoints leave the table as they are built; it must not be emptied by accident.
    assert.ok(PLACEHOLDERS.length >= 20, `only ${PLACEHOLDERS.length} placeholders`);
    const keys = PLACEHOLDERS.map(key);
    assert.deepEqual(
      keys.filter((k, i) => keys.indexOf(k) !== i),
      [],
      "no endpoint twice",
    );
  });

  it("answers each endpoint with a proper token: status and body shape", async () => {
    const failures: string[] = [];
    for (const p of PLACEHOLDERS) {
      const r = await call(p, fill(p, bobId), tokenFor(p));
      const want = expectedStatus(p);
      const problem = (what: string) => failures.push(`${key(p)}: ${what} (got ${r.status} ${JSON.stringify(r.body)})`);
      if (r.status !== want) {
        problem(`status ${want} expected`);
        continue;
      }
      const a = p.answer;
      if (want === 404) {
        if (JSON.stringify(r.body) !== JSON.stringify(NOT_FOUND)) problem("Record not found expected");
      } else if (want === 422) {
        if (r.body?.error !== UNAVAILABLE) problem("the not-available error expected");
      } else if (a.kind === "list") {
        if (!Array.isArray(r.body) || r.body.length !== 0) problem("[] expected");
      } else if (a.kind === "page" || a.kind === "offset") {
        const body = typeof a.body === "function" ? undefined : (a.body ?? []);
        if (body !== undefined && JSON.stringify(r.body) !== JSON.stringify(body)) problem("empty body expected");
        const wantsLink = a.kind === "page";
        if (wantsLink && !r.headers.get("link")) problem("Link header expected");
        if (!wantsLink && r.headers.get("link")) problem("no Link header expected");
      } else if (a.kind === "json" && typeof a.body !== "function") {
        if (JSON.stringify(r.body) !== JSON.stringify(a.body)) problem(`${JSON.stringify(a.body)} expected`);
      } else if (a.kind === "text") {
        if (r.body !== a.body) problem(`text ${a.body} expected`);
      } else if (a.kind === "no-content") {
        if (r.body !== "") problem("no body expected");
      }
    }
    assert.deepEqual(failures, []);
  });

  it("answers 401 without a token where a token is needed (422 where Mastodon only asks for a user)", async () => {
    const failures: string[] = [];
    for (const p of PLACEHOLDERS) {
      if (p.guard.auth === "public" || p.guard.auth === "public*") continue;
      const r = await call(p, fill(p, bobId));
      const want = p.guard.auth === "signed-in" ? [422, USER_REQUIRED] : [401, INVALID];
      if (r.status !== want[0] || JSON.stringify(r.body) !== JSON.stringify(want[1])) {
        failures.push(`${key(p)}: got ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it("answers 401 for an invalid token where a token is checked", async () => {
    const failures: string[] = [];
    for (const p of PLACEHOLDERS) {
      if (p.guard.auth === "public" || p.guard.auth === "signed-in") continue;
      const r = await call(p, fill(p, bobId), "not-a-token");
      if (r.status !== 401) failures.push(`${key(p)}: got ${r.status}`);
    }
    assert.deepEqual(failures, []);
  });

  it("answers 403 to a token without the scope", async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const p of PLACEHOLDERS) {
      if (!("scopes" in p.guard) || p.guard.scopes.length === 0) continue;
      const scopes = p.guard.scopes;
      const t = narrow.find((n) => !grantsAny(n.scopes, scopes));
      if (!t) {
        failures.push(`${key(p)}: no narrow token refuses ${scopes.join(" ")}`);
        continue;
      }
      checked++;
      const r = await call(p, fill(p, bobId), t.token);
      if (r.status !== 403 || JSON.stringify(r.body) !== JSON.stringify(OUTSIDE)) {
        failures.push(`${key(p)} with ${t.scopes.join(" ")}: got ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    assert.deepEqual(failures, []);
    // Endpoints leave the table as they are built; most of what is left is scoped.
    assert.ok(checked >= 15, `only ${checked} checked`);
  });

  it("answers 422 to an app token on user endpoints, and serves app tokens where any token will do", async () => {
    const failures: string[] = [];
    for (const p of PLACEHOLDERS) {
      const g = p.guard.auth;
      if (g === "public") continue;
      const r = await call(p, fill(p, bobId), appToken);
      if (g === "user" || g === "admin" || g === "signed-in") {
        if (r.status !== 422 || JSON.stringify(r.body) !== JSON.stringify(USER_REQUIRED)) {
          failures.push(`${key(p)}: got ${r.status} ${JSON.stringify(r.body)}`);
        }
      } else if (r.status !== expectedStatus(p)) {
        failures.push(`${key(p)}: ${expectedStatus(p)} expected for an app token, got ${r.status}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  it("serves public endpoints without a token, and checks the scope of a sent token on public* ones", async () => {
    const publics = PLACEHOLDERS.filter((p) => p.guard.auth === "public" || p.guard.auth === "public*");
    assert.ok(publics.length >= 4, `only ${publics.length} public placeholders`);
    for (const p of publics) {
      const r = await call(p, fill(p, bobId));
      assert.equal(r.status, expectedStatus(p), key(p));
    }
    // A token holding only `push` is ignored on public endpoints and refused on public* ones.
    const pushOnly = narrow[0].token;
    const trends = await s.request("/api/v1/trends/tags", { token: pushOnly });
    assert.equal(trends.status, 200);
    const timeline = await s.request("/api/v1/timelines/public", { token: pushOnly });
    assert.equal(timeline.status, 403);
  });

  it("answers 400 to a negative limit on paginated lists", async () => {
    const failures: string[] = [];
    const paged = PLACEHOLDERS.filter(
      (p) => (p.answer.kind === "page" || p.answer.kind === "offset") && p.method === "GET",
    );
    assert.ok(paged.length >= 2, `only ${paged.length} paginated placeholders`);
    for (const p of paged) {
      const r = await call(p, `${fill(p, bobId)}?limit=-1`, tokenFor(p));
      if (r.status !== 400) failures.push(`${key(p)}: got ${r.status}`);
    }
    assert.deepEqual(failures, []);
  });

  it("answers the same with a trailing slash", async () => {
    const failures: string[] = [];
    for (const p of PLACEHOLDERS.filter((x) => x.method === "GET")) {
      const r = await call(p, `${fill(p, bobId)}/`, tokenFor(p));
      if (r.status !== expectedStatus(p)) failures.push(`${key(p)}/: got ${r.status}`);
    }
    assert.deepEqual(failures, []);
  });

  it("answers 404 on account sub-resources of a missing, unknown-shaped or unconfirmed account, 410 for a deleted one", async () => {
    const pending = await s.createUser("pending", { confirmed: false });
    const deleted = await s.createUser("deleted");
    await s.ctx.repos.accounts.update(deleted.account.id, {
      suspended_at: new Date().toISOString(),
      suspension_origin: "deleted",
    });
    const failures: string[] = [];
    const scoped = PLACEHOLDERS.filter((p) => p.account !== undefined);
    // Built endpoints leave this list (blocks and mutes did); it must not be empty by mistake.
    assert.ok(scoped.length > 0);
    for (const p of scoped) {
      const token = tokenFor(p);
      for (const [id, want] of [
        ["999999999", 404],
        ["nope", 404],
        [pending.account.id, 404],
        [deleted.account.id, 410],
      ] as const) {
        const r = await call(p, fill(p, id), token);
        if (r.status !== want) failures.push(`${key(p)} for ${id}: ${want} expected, got ${r.status}`);
      }
    }
    const admin = PLACEHOLDERS.filter((p) => p.existing !== undefined);
    for (const p of admin) {
      const r = await call(p, fill(p, "999999999"), adminToken);
      if (r.status !== 404) failures.push(`${key(p)} for a missing account: got ${r.status}`);
      const seen = await call(p, fill(p, pending.account.id), adminToken);
      if (seen.status !== 422) failures.push(`${key(p)} for a pending account: got ${seen.status}`);
    }
    assert.deepEqual(failures, []);
  });
});
