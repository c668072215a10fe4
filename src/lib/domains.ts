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

/**
 * A domain as a domain block or allow names it: `normalizeDomain`'s host, with an optional port
 * (`localhost:3001`: test servers and some small servers differ by it). `null` when not a domain.
 */
export function normalizeDomainWithPort(input: string): string | null {
  const m = /^(.*?)(?::(\d{1,5}))?\/?$/.exec(input.trim());
  const host = m ? normalizeDomain(m[1] ?? "") : null;
  const port = m?.[2] === undefined ? undefined : Number(m[2]);
  if (host === null || (port !== undefined && (port < 1 || port > 65535))) return null;
  return port === undefined ? host : `${host}:${port}`;
}
