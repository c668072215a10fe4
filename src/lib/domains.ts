import { domainToASCII } from "node:url";

/** Mastodon's DomainValidator: under 256 characters, labels of 1 to 63 letters, digits and hyphens. */
const MAX_DOMAIN_LENGTH = 256;
const MAX_LABEL_LENGTH = 63;
const LABEL_RE = /^[a-z0-9-]+$/;

/**
 * A domain as Mastodon normalises it (`TagManager#normalize_domain`, Addressable's normalized
 * host): trimmed, one trailing `/` and one trailing `.` dropped, lower-case, international
 * names in punycode. `null` when it is not a host name Mastodon's DomainValidator accepts (empty,
 * a scheme, a path, a port, spaces, an empty or over-long label, 256 characters or more).
 */
export function normalizeDomain(input: string): string | null {
  let v = input.trim();
  if (v.endsWith("/")) v = v.slice(0, -1);
  if (v === "" || /[\s/:@?#\\]/.test(v)) return null;
  let host = domainToASCII(v.toLowerCase());
  if (host === "") return null;
  if (host.length > 1 && host.endsWith(".") && !host.endsWith("..")) host = host.slice(0, -1);
  if (host.length >= MAX_DOMAIN_LENGTH) return null;
  const ok = host.split(".").every((l) => l.length >= 1 && l.length <= MAX_LABEL_LENGTH && LABEL_RE.test(l));
  return ok ? host : null;
}

/**
 * A host (with or without its port) that only this machine reaches: `localhost` and its
 * subdomains, the IPv4 loopback range, `[::1]`. Such a server is not on the internet: it gets
 * plain http by default, and `gannet doctor` says so.
 */
export function isLocalHost(host: string): boolean {
  const h = host.replace(/:\d+$/, "");
  return h === "localhost" || h.endsWith(".localhost") || h === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(h);
}
