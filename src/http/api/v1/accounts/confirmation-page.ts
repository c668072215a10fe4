import type { AppContext } from "../../../../context.ts";
import { escapeHtml } from "../../../../lib/text/escape.ts";

const MESSAGES = {
  confirmed: {
    title: "E-mail address confirmed",
    body: "Your e-mail address has been confirmed. You can now use your account in your app.",
  },
  invalid: {
    title: "Confirmation link not valid",
    body: "This confirmation link is not valid or has already been used. Ask your app to send a new one.",
  },
} as const;

/** The small page a person sees after opening the link in the confirmation mail. */
export function confirmationPage(ctx: AppContext, outcome: keyof typeof MESSAGES): string {
  const m = MESSAGES[outcome];
  const site = escapeHtml(ctx.config.siteTitle);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(m.title)} - ${site}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5}</style>
</head>
<body>
<h1>${escapeHtml(m.title)}</h1>
<p>${escapeHtml(m.body)}</p>
<p><a href="${escapeHtml(ctx.config.baseUrl)}/">${site}</a></p>
</body>
</html>
`;
}
