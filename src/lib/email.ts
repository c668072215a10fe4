/** Longest e-mail address taken (a bound on stored input; Mastodon's column has none). */
export const EMAIL_MAX = 255;

// RFC 5322 atext without `%`, which Mastodon refuses along with `,` and `"` (characters some mail
// software reads as routing or list syntax). ASCII only: a UTF-8 address needs SMTPUTF8 from every
// relay on the way, which an operator cannot count on.
const ATEXT = "[A-Za-z0-9!#$&'*+/=?^_`{|}~-]";
// The mail gem Mastodon validates with takes stray dots in the local part (`a..b`, `.a`); the
// domain is a dot-atom, with or without a dot (`admin@localhost`), or a bracketed literal.
const LOCAL = `[.]*${ATEXT}[A-Za-z0-9!#$&'*+/=?^_\`{|}~.-]*`;
const DOMAIN = `(?:${ATEXT}+(?:\\.${ATEXT}+)*|\\[[!#-$&-+\\--?A-Z^-~]*\\])`;
const EMAIL_RE = new RegExp(`^${LOCAL}@${DOMAIN}$`);

/**
 * Whether `email` (already trimmed) is an address Mastodon would take: Devise's `x@y` shape and
 * its EmailAddressValidator (a bare addr-spec as the mail gem parses it, no `%`, `,` or `"`).
 * The same rule for the CLI, registration, e-mail changes and the admin tools.
 */
export function isValidEmail(email: string): boolean {
  return email.length <= EMAIL_MAX && EMAIL_RE.test(email);
}
