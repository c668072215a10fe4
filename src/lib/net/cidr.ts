import { parseRange } from "./address-policy.ts";

/** Writes a 32-bit IPv4 value as dotted quads. */
function formatV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join(".");
}

/** Writes a 128-bit IPv6 value in its compressed form (RFC 5952: the longest run of zero groups as `::`). */
function formatV6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}

/**
 * A CIDR range in the form Mastodon renders an IpBlock's `ip`: the network address (host bits
 * cleared) and the prefix length, `192.0.2.0/24`, `2001:db8::/32`; a single address gets `/32`
 * or `/128`. Undefined when `text` is neither an address nor a range.
 */
export function canonicalCidr(text: string): string | undefined {
  const range = parseRange(text);
  if (!range) return undefined;
  const address = range.family === 4 ? formatV4(range.base) : formatV6(range.base);
  return `${address}/${range.prefix}`;
}
