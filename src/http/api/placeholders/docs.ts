import { Permission } from "../../../lib/roles.ts";
import { AREAS, BUILT_ELSEWHERE, NOT_SERVED, type OtherEndpoint } from "./index.ts";
import type { Answer, Guard, Placeholder } from "./types.ts";

/**
 * docs/compatibility.md, generated from the placeholder tables so that the two cannot drift:
 * `npm run docs` rewrites the whole file (test/api/placeholders-census.test.ts compares them).
 */

const PERMISSION_NAMES = Object.entries(Permission).map(([name, bit]) => ({
  bit,
  label: name.replace(/([A-Z])/g, " $1").replace(/^./, (ch) => ch.toUpperCase()),
}));

function permissionLabel(bits: number): string {
  return PERMISSION_NAMES.filter((p) => (bits & p.bit) === p.bit)
    .map((p) => p.label)
    .join(" + ");
}

const code = (scopes: readonly string[]) => scopes.map((s) => `\`${s}\``).join(" or ");

function guardLabel(g: Guard): string {
  switch (g.auth) {
    case "public":
      return "public";
    case "public*":
      return `public; a sent token needs ${code(g.scopes)}`;
    case "signed-in":
      return "user (any scope)";
    case "user":
      return `user: ${code(g.scopes)}`;
    case "app":
      return `app or user: ${code(g.scopes)}`;
    case "admin":
      return `admin: ${code(g.scopes)} + ${permissionLabel(g.permission)}`;
  }
}

function answerLabel(a: Answer): string {
  switch (a.kind) {
    case "list":
      return "`[]`";
    case "page":
      return `\`[]\` with a \`Link\` header (limit ${a.def}, max ${a.max})`;
    case "offset":
      return `\`[]\` (limit ${a.def}, max ${a.max}, \`offset\`)`;
    case "json":
      return "the entity with empty values";
    case "not-found":
      return "404 (no such record can exist yet)";
    case "unavailable":
      return "422 not available yet";
    case "no-content":
      return "204 (nothing to show)";
    case "text":
      return `text \`${a.body}\``;
  }
}

function noteOf(p: Placeholder): string {
  let note = p.note ?? answerLabel(p.answer);
  if (p.account) note += "; 404 for a missing or hidden account, 410 for a deleted one";
  if (p.existing) note += "; 404 for a missing account";
  return note;
}

const PLACEHOLDER_STATUS = "not yet built (placeholder: empty answer)";

function otherRows(rows: readonly OtherEndpoint[], status: string): string[] {
  return rows.map((r) => `| ${r.method === "*" ? "any" : r.method} | \`${r.path}\` | ${status} | ${r.note} |`);
}

const INTRO = `# Mastodon API compatibility

Which endpoints of the Mastodon client API Gannet serves, and how. *Built* endpoints are real.
Endpoints that are *not yet built* still answer in Mastodon's shape, so that clients keep working:

- **Scopes and roles are already right.** Every placeholder checks what Mastodon checks: no token
  is 401, a token without the scope is 403, an app token where a user is needed is 422, an admin
  endpoint without the role permission is 403 \`This action is not allowed\`. Features built
  later keep these rules.
- **Lists** answer \`[]\`, with a \`Link\` header where Mastodon paginates (a negative \`limit\` or
  \`offset\` is 400).
- **Entities** are given with the values that are true while nothing exists: a Relationship with
  every flag false, \`{count: 0}\`, the default notification policy, a tag no post has used.
- **Single records** that cannot exist yet (a status, list, filter, notification, poll, media
  attachment, report, admin record, ...) are 404 \`{"error": "Record not found"}\`, which is
  Mastodon's own answer for a record that does not exist. Account sub-resources check the account
  first: 404 when it does not exist or is hidden, 410 when it was deleted.
- **Undo actions** that have nothing to undo (unendorse, unpin, tag unfollow,
  clearing notifications, removing a domain block or a push subscription) succeed with the
  entity or \`{}\` Mastodon returns, because that is the truth.
- **Writes that cannot work yet** (following hashtags, endorsing, creating lists or
  filters, uploading media, reporting, voting, saving markers, admin actions, ...) answer
  **422** \`{"error": "This feature is not available on this server yet"}\`, after the scope
  and role checks.

Why 422 and not 501: clients treat a 4xx answer as final and show its \`error\` text, the way
they show Mastodon's own validation failures (Mastodon answers 422 to a request it cannot carry
out). A 5xx answer reads as a broken server: several clients retry it, queue posts for later,
or tell the user the server is down. Mastodon never answers 501, so no client has a path made
for it.

Notes on guards: \`public\` endpoints ignore a sent token, as Mastodon does; \`public\` with a
scope (the census' \`public*\`) checks a token when one is sent. Where upstream's code accepts
more than the census row (suggestions accept \`read:accounts\`, dismissing one accepts
\`write:accounts\`), both are accepted. The streaming API (WebSocket and server-sent events)
is built; see [Using Gannet from clients](clients.md#streaming).
`;

/** The whole document. */
export function compatibilityMarkdown(): string {
  const out: string[] = [INTRO];
  out.push("## Built", "", "| Method | Path | Status | Note |", "|---|---|---|---|");
  out.push(...otherRows(BUILT_ELSEWHERE, "built"), "");
  for (const area of AREAS) {
    out.push(`## ${area.title}`, "", "| Method | Path | Status | Auth | Answer now |", "|---|---|---|---|---|");
    for (const p of area.rows) {
      out.push(`| ${p.method} | \`${p.path}\` | ${PLACEHOLDER_STATUS} | ${guardLabel(p.guard)} | ${noteOf(p)} |`);
    }
    out.push("");
  }
  out.push("## Not served on purpose", "", "| Method | Path | Status | Note |", "|---|---|---|---|");
  out.push(...otherRows(NOT_SERVED, "not yet built (no placeholder)"), "");
  out.push(
    "Endpoints Mastodon removed (section 8 of the API census: the v1 search, the direct timeline,",
    "`POST /api/v1/notifications/dismiss`, the `/api/v2_alpha` notifications, Keybase proofs)",
    "are not served: they answer 404, as on Mastodon 4.x. `GET /api/v1/statuses/:id/card` is the exception (above),",
    "and so is the end-to-end encryption API of Mastodon 3.3 to 4.2 (`/api/v1/crypto/*`, scope `crypto`), which is",
    "served: [encrypted-messages.md](encrypted-messages.md).",
    "",
  );
  return out.join("\n");
}

/** The first line of the file, so that nobody edits it by hand. */
export const GENERATED_NOTE = "<!-- generated by npm run docs from src/http/api/placeholders/: do not edit by hand -->";

/** Where the document lives, from the repository's root. */
export const COMPATIBILITY_PATH = "docs/compatibility.md";

/** The whole of docs/compatibility.md. */
export function compatibilityFile(): string {
  return `${GENERATED_NOTE}\n\n${compatibilityMarkdown().trimEnd()}\n`;
}

if (import.meta.main) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(new URL(`../../../../${COMPATIBILITY_PATH}`, import.meta.url), compatibilityFile());
}
