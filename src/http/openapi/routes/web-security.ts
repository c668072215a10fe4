import { z } from "zod";
import type { DocArea } from "../types.ts";
import { d, html } from "./common.ts";

const signedIn = { auth: "none" as const, validates: false };
const form = { authenticity_token: z.string().describe("The page's CSRF token") };
const password = z.string().describe("The current password");
const json = (description: string) => ({ schema: { type: "object" }, type: "application/json", description });
const pageAnswers = { 302: null, 422: html, 429: html };

/** The web side's security area (src/http/web/security): two-factor sign-in and sessions. */
export const webSecurityDocs: DocArea = {
  tag: "Web",
  routes: {
    "GET /settings/two_factor_authentication_methods": d("Two-factor authentication: what is set up", html, {
      description: "Without a session, redirects to the sign-in page (as every page here).",
      answers: { 302: null },
      ...signedIn,
    }),
    "GET /settings/otp_authentication": d("Set up an authenticator app (QR code and key)", html, {
      answers: { 302: null },
      ...signedIn,
    }),
    "POST /settings/otp_authentication": d("Turn on the authenticator app; shows the recovery codes", html, {
      body: z.object({ ...form, otp_attempt: z.string().describe("The app's current code"), password }),
      answers: pageAnswers,
      ...signedIn,
    }),
    "POST /settings/two_factor_authentication/recovery_codes": d("Replace the recovery codes; shows them", html, {
      body: z.object({ ...form, password }),
      answers: pageAnswers,
      ...signedIn,
    }),
    "POST /settings/two_factor_authentication/disable": d("Turn two-factor sign-in off", null, {
      status: 303,
      description: "Removes the app's secret, the recovery codes and the security keys.",
      body: z.object({ ...form, otp_attempt: z.string().describe("A code from the app, or the current password") }),
      answers: pageAnswers,
      ...signedIn,
    }),
    "GET /settings/security_keys": d("Security keys (WebAuthn): list and add", html, {
      answers: { 302: null },
      ...signedIn,
    }),
    "GET /settings/security_keys/options": d(
      "WebAuthn options to register a key",
      json("PublicKeyCredentialCreationOptionsJSON"),
      {
        description: "For the page's script. 422 until an authenticator app is set up.",
        errors: [401, 422],
        ...signedIn,
      },
    ),
    "POST /settings/security_keys": d("Add a security key", null, {
      status: 303,
      body: z.object({
        ...form,
        nickname: z.string().max(60),
        password,
        credential: z.string().describe("The browser's registration response (WebAuthn JSON)"),
      }),
      answers: pageAnswers,
      ...signedIn,
    }),
    "POST /settings/security_keys/:id/delete": d("Delete a security key", null, {
      status: 303,
      body: z.object(form),
      answers: { 302: null, 404: html, 422: html },
      ...signedIn,
    }),
    "GET /settings/sessions": d("The signed-in browser sessions", html, { answers: { 302: null }, ...signedIn }),
    "POST /settings/sessions/:id/revoke": d("Sign one session out", null, {
      status: 303,
      body: z.object(form),
      answers: { 302: null, 404: html, 422: html },
      ...signedIn,
    }),
    "POST /settings/sessions/revoke_others": d("Sign out every other session", null, {
      status: 303,
      body: z.object(form),
      answers: { 302: null, 422: html },
      ...signedIn,
    }),
  },
};
