import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

// The web side's account pages (src/http/web/auth): HTML forms for people, not an API. Every
// form carries `authenticity_token`, the CSRF token of the browser session.
const csrf = z.object({ authenticity_token: z.string() });
const page = { auth: "none" as const };
const form = (summary: string, body: z.ZodObject, more: Record<string, unknown> = {}) =>
  d(summary, html, { body: csrf.extend(body.shape), answers: { 302: null, 422: html, 429: html }, ...page, ...more });
const signedIn = (summary: string) => d(summary, html, { answers: { 302: null }, ...page });

/** Sign-up, confirmation, password reset, the account page and account deletion. */
export const webAuthDocs: DocArea = {
  tag: "Web accounts",
  description: "Server-rendered account pages (docs/web-accounts.md)",
  routes: {
    "GET /auth/sign_up": d("The sign-up form (or the closed-registrations page)", html, {
      answers: { 302: null },
      ...page,
    }),
    "POST /auth/sign_up": form(
      "Sign up; signs the new user in and redirects to /auth/setup",
      z.object({
        username: z.string(),
        email: z.string(),
        password: z.string(),
        password_confirmation: z.string(),
        agreement: z.string().describe("The server's rules accepted"),
        locale: z.string().optional(),
        reason: z.string().optional().describe("In approval mode"),
        date_of_birth: z.string().optional().describe("YYYY-MM-DD, when the server has a minimum age"),
      }),
      { answers: { 302: null, 403: html, 422: html, 429: html } },
    ),
    "GET /auth/setup": signedIn("The pending state of a new account (unconfirmed address, awaiting approval)"),
    "POST /auth/setup": form(
      "Correct the address of an unconfirmed account and resend the link",
      z.object({ email: z.string() }),
    ),
    "GET /auth/confirmation/new": d("The form asking for a new confirmation link", html, page),
    "POST /auth/confirmation": form(
      "Send a new confirmation link (same answer for any address)",
      z.object({ email: z.string() }),
    ),
    "GET /auth/password/new": d("The form asking for a password reset link", html, page),
    "POST /auth/password": form(
      "Mail a password reset link (same answer for any address)",
      z.object({ email: z.string() }),
    ),
    "GET /auth/password/edit": d("The new password form of a reset link", html, {
      query: z.object({ reset_password_token: z.string() }),
      answers: { 404: html },
      ...page,
    }),
    "POST /auth/password/edit": form(
      "Set a new password through a reset link; ends every session and app access",
      z.object({ reset_password_token: z.string(), password: z.string(), password_confirmation: z.string() }),
      { answers: { 404: html, 422: html, 429: html } },
    ),
    "GET /.well-known/change-password": d("Where password managers change a password (redirects to /auth/edit)", null, {
      status: 302,
      ...page,
    }),
    "GET /auth/edit": signedIn("The account page: e-mail address and password"),
    "POST /auth/edit/email": form(
      "Change the e-mail address (takes effect once the new address is confirmed)",
      z.object({ email: z.string(), current_password: z.string() }),
    ),
    "POST /auth/edit/password": form(
      "Change the password (other browser sessions end)",
      z.object({ current_password: z.string(), password: z.string(), password_confirmation: z.string() }),
    ),
    "GET /settings/delete": signedIn("The account deletion page"),
    "POST /settings/delete": form(
      "Delete one's own account (the username stays taken)",
      z.object({ password: z.string(), confirm: z.string() }),
    ),
  },
};
