/**
 * Texts the server shows until its operator writes their own. They are deliberately short and
 * plain: an operator should replace them, and the privacy policy says what Gannet stores.
 */

/** When the default privacy policy text last changed (its `updated_at`). */
export const DEFAULT_PRIVACY_POLICY_DATE = "2026-11-01T00:00:00.000Z";

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function defaultPrivacyPolicy(site: { title: string; domain: string; contactEmail: string }): string {
  const contact = site.contactEmail
    ? `<a href="mailto:${escapeHtml(site.contactEmail)}">${escapeHtml(site.contactEmail)}</a>`
    : "the server's administrators";
  return [
    `<h1>Privacy policy of ${escapeHtml(site.title)}</h1>`,
    "<h2>What this server stores</h2>",
    "<ul>",
    "<li><strong>Your account:</strong> your username, e-mail address, a hash of your password and the profile you fill in. Your profile is public.</li>",
    "<li><strong>Your posts:</strong> what you publish, with its audience. Public and unlisted posts are visible to anyone; followers-only and direct posts go to the people they are addressed to, including people on other servers.</li>",
    "<li><strong>Sign-in data:</strong> the IP address you signed up from and when you last signed in, kept to protect the server from abuse.</li>",
    "</ul>",
    "<h2>Other servers</h2>",
    `<p>${escapeHtml(site.domain)} is part of a federated network. What you publish is delivered to the servers of the people it is addressed to; those servers follow their own policies, and deleting a post here asks them to delete their copies.</p>`,
    "<h2>What the information is used for</h2>",
    "<p>To run the service: to show your posts and profile, to deliver them, to send the e-mails you ask for, and to moderate the server. It is not sold or used for advertising.</p>",
    "<h2>Your choices</h2>",
    "<p>You can delete your posts and your account at any time.</p>",
    "<h2>Contact</h2>",
    `<p>Questions about this policy: ${contact}.</p>`,
  ].join("\n");
}
