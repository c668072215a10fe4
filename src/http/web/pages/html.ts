import type { Context } from "hono";
import { randomToken } from "../../../lib/crypto.ts";
import type { HonoEnv } from "../../types.ts";
import { pageCsrfToken } from "../session.ts";

/** Markup that is already safe to insert (built by `html` or `raw`). */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and (quoted) attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

function render(v: unknown): string {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  if (v === null || v === undefined || v === false) return "";
  return escapeHtml(String(v));
}

/** Template tag: every interpolated value is escaped unless it is `SafeHtml` (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Hidden form fields, one per entry with a value. */
export function hiddenFields(fields: Record<string, string | undefined>): SafeHtml {
  return html`${Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}`;
}

const STYLE = `
body{font-family:system-ui,sans-serif;background:#f4f4f8;color:#1c1c24;margin:0;padding:2rem 1rem;line-height:1.5}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #889;border-radius:4px}
button{font-size:1rem;padding:.55rem 1.2rem;border-radius:4px;border:1px solid #4c4cc4;background:#5d5dd6;color:#fff;cursor:pointer;margin-top:1rem}
button.secondary{background:#fff;color:#4c4cc4}.actions{display:flex;gap:.8rem;flex-wrap:wrap}.actions form{margin:0}
.error{background:#fde8e8;border:1px solid #d66;padding:.6rem .8rem;border-radius:4px}
code.code{display:block;font-size:1.1rem;padding:.8rem;background:#eef;border-radius:4px;word-break:break-all;user-select:all}
.muted{color:#556;font-size:.9rem}ul.scopes{padding-left:1.2rem}
`;

export interface PageOptions {
  title: string;
  body: SafeHtml;
  status?: number;
  /** Extra `form-action` sources (where a form submission may end up redirecting). */
  formAction?: string[];
  /** Inline script allowed on this page (auto-submitted form_post responses only). */
  script?: string;
  /** Extra elements for `<head>` (a profile's ActivityPub `alternate` link). */
  head?: SafeHtml;
}

/**
 * A complete HTML page with a strict Content-Security-Policy: nothing loads from anywhere, the
 * only inline style and script are those carrying this response's nonce, and forms may only
 * post to this server (plus the client redirect targets the caller names).
 */
export function sendPage(c: Context<HonoEnv>, opts: PageOptions): Response {
  const nonce = randomToken(16);
  const siteTitle = c.env.ctx.config.siteTitle;
  const formAction = ["'self'", ...(opts.formAction ?? [])].join(" ");
  const csp = [
    "default-src 'none'",
    `style-src 'nonce-${nonce}'`,
    opts.script ? `script-src 'nonce-${nonce}'` : "script-src 'none'",
    "img-src 'self'",
    `form-action ${formAction}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  // As Mastodon's layout: the session's CSRF token for scripts (the admin API takes it as X-CSRF-Token).
  const csrf = pageCsrfToken(c);
  const csrfMeta =
    csrf === undefined
      ? ""
      : html`<meta name="csrf-param" content="authenticity_token">
<meta name="csrf-token" content="${csrf}">
`;
  const page = html`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
${csrfMeta}<title>${opts.title} - ${siteTitle}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
${opts.head ?? ""}
</head>
<body>
<main>
${opts.body}
</main>
${opts.script ? html`<script nonce="${nonce}">${new SafeHtml(opts.script)}</script>` : ""}
</body>
</html>
`;
  return c.body(page.value, (opts.status ?? 200) as 200, {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": csp,
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
  });
}
