import { isIP } from "node:net";

/**
 * Which IP addresses outgoing HTTP may contact. Anything not on the public internet (loopback,
 * RFC 1918, link-local, unique-local, CGNAT, multicast, documentation and reserved ranges) is
 * refused unless the operator lists it in ALLOWED_PRIVATE_ADDRESSES, so a remote actor cannot make
 * the server reach its own network (SSRF). Pure functions: no DNS here.
 */

/** An address as a number: IPv4 in 32 bits, IPv6 in 128. */
export interface ParsedAddress {
  family: 4 | 6;
  value: bigint;
}

interface Range {
  family: 4 | 6;
  base: bigint;
  prefix: number;
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

/** Parses an IPv4 or IPv6 literal (brackets and zone ids tolerated); undefined when it is not one. */
export function parseAddress(text: string): ParsedAddress | undefined {
  let s = text.trim();
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const kind = isIP(s);
  if (kind === 4) return { family: 4, value: parseV4(s) };
  if (kind === 6) return { family: 6, value: parseV6(s) };
  return undefined;
}

function parseV4(s: string): bigint {
  return s.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number.parseInt(part, 10)), 0n);
}

function parseV6(s: string): bigint {
  let text = s.toLowerCase();
  // A dotted IPv4 tail (::ffff:1.2.3.4) becomes two hex groups.
  const dot = text.lastIndexOf(".");
  if (dot >= 0) {
    const colon = text.lastIndexOf(":");
    const v4 = parseV4(text.slice(colon + 1));
    text = `${text.slice(0, colon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array(missing).fill("0"), ...tailGroups];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is the IPv4 address it carries. */
export function normalizeAddress(a: ParsedAddress): ParsedAddress {
  if (a.family === 6 && a.value >> 32n === 0xffffn) return { family: 4, value: a.value - V4_MAPPED_PREFIX };
  return a;
}

/** Parses `10.0.0.0/8`, `fd00::/8` or a single address (a /32 or /128); undefined when invalid. */
export function parseRange(text: string): Range | undefined {
  const [addr, bits, extra] = text.trim().split("/");
  if (extra !== undefined || addr === undefined) return undefined;
  const parsed = parseAddress(addr);
  if (!parsed) return undefined;
  const width = parsed.family === 4 ? 32 : 128;
  let prefix = width;
  if (bits !== undefined) {
    if (!/^\d{1,3}$/.test(bits)) return undefined;
    prefix = Number(bits);
    if (prefix > width) return undefined;
  }
  // An IPv4-mapped range is the IPv4 range it carries, so it matches normalised addresses.
  if (parsed.family === 6 && prefix >= 96 && parsed.value >> 32n === 0xffffn) {
    return toRange({ family: 4, value: parsed.value - V4_MAPPED_PREFIX }, prefix - 96);
  }
  return toRange(parsed, prefix);
}

function toRange(a: ParsedAddress, prefix: number): Range {
  const width = a.family === 4 ? 32 : 128;
  const hostBits = BigInt(width - prefix);
  return { family: a.family, base: (a.value >> hostBits) << hostBits, prefix };
}

function inRange(a: ParsedAddress, r: Range): boolean {
  if (a.family !== r.family) return false;
  const hostBits = BigInt((a.family === 4 ? 32 : 128) - r.prefix);
  return a.value >> hostBits === r.base >> hostBits;
}

function ranges(list: string[]): Range[] {
  return list.map((text) => {
    const r = parseRange(text);
    if (!r) throw new Error(`not an address range: ${text}`);
    return r;
  });
}

/**
 * Not globally reachable: the special-purpose registries of IANA (RFC 6890 and successors) as
 * Mastodon refuses them. Transition prefixes that embed an IPv4 address (NAT64, 6to4, Teredo) are
 * refused whole rather than decoded: a public server is not reached through them in practice.
 * Parsed on first use: the first `isIP` compiles Node's IPv6 pattern, a few milliseconds that
 * start-up does not need.
 */
const NON_PUBLIC_TEXT = [
  "0.0.0.0/8", // "this network", includes the unspecified 0.0.0.0
  "10.0.0.0/8", // RFC 1918
  "100.64.0.0/10", // carrier-grade NAT
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local (cloud metadata endpoints live here)
  "172.16.0.0/12", // RFC 1918
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.88.99.0/24", // 6to4 relay anycast
  "192.168.0.0/16", // RFC 1918
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, includes the broadcast address
  "::/96", // unspecified, loopback and the deprecated IPv4-compatible addresses
  "64:ff9b::/96", // NAT64
  "64:ff9b:1::/48", // local-use NAT64
  "100::/64", // discard-only
  "2001::/23", // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4
  "fc00::/7", // unique-local
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
];
let nonPublic: Range[] | undefined;

/** True when the address is on the public internet. */
export function isPublicAddress(address: ParsedAddress): boolean {
  const a = normalizeAddress(address);
  nonPublic ??= ranges(NON_PUBLIC_TEXT);
  return !nonPublic.some((r) => inRange(a, r));
}

/**
 * A test of membership in a list of addresses and ranges (`127.0.0.1`, `::1`, `172.16.0.0/12`).
 * An address written as in the list matches by its text, so the common case parses nothing;
 * otherwise it is parsed and compared with every entry (other spellings of an address, ranges).
 * Throws on an entry that is neither an address nor a range.
 */
export function addressMatcher(list: readonly string[]): (address: string) => boolean {
  const exact = new Set(list.map((entry) => entry.trim()));
  const cidrs = list.map((entry) => {
    const r = parseRange(entry);
    if (!r) throw new Error(`"${entry}" is not an IP address or CIDR range`);
    return r;
  });
  return (address) => {
    if (exact.has(address)) return true;
    const a = parseAddress(address);
    if (!a) return false;
    const n = normalizeAddress(a);
    return cidrs.some((r) => inRange(n, r));
  };
}

export interface AddressPolicy {
  /** May outgoing HTTP connect to this address (a literal, e.g. from DNS)? Non-addresses: no. */
  allows(address: string): boolean;
  /** The operator allowed this non-public address explicitly (by ALLOWED_PRIVATE_ADDRESSES). */
  isExplicitlyAllowed(address: string): boolean;
}

/**
 * The policy for an operator's allow list (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`...).
 * Throws on an entry that is neither an address nor a range, so a typo is not silently ignored.
 */
export function createAddressPolicy(allowed: readonly string[]): AddressPolicy {
  const allowList = allowed.map((entry) => {
    const r = parseRange(entry);
    if (!r) throw new Error(`ALLOWED_PRIVATE_ADDRESSES: "${entry}" is not an IP address or CIDR range`);
    return r;
  });
  const explicit = (a: ParsedAddress): boolean => {
    const n = normalizeAddress(a);
    return allowList.some((r) => inRange(n, r));
  };
  return {
    allows(address) {
      const a = parseAddress(address);
      if (!a) return false;
      return isPublicAddress(a) || explicit(a);
    },
    isExplicitlyAllowed(address) {
      const a = parseAddress(address);
      return a !== undefined && explicit(a);
    },
  };
}
