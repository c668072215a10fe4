/**
 * The compose box's character count, the rule the server checks a post against
 * (lib/text/length.ts `countableLength`): every URL counts `urlLength` characters, a mention
 * counts only its `@username` part, and the rest counts grapheme clusters. It runs in the browser
 * too (assets/client-compose-js.ts serves its source), so it stays self-contained: no imports,
 * no module-level values.
 */
export function composeLength(text: string, urlLength: number): number {
  const url =
    /(?<![\p{L}\p{N}@$#/_])(?:(?:https?|dat|dweb|ipfs|ipns|ssb|gopher|gemini):\/\/[^\s<>"'`]+|(?:xmpp|magnet):[^\s<>"'`]+)/giu;
  const mention =
    /(?<![=/\p{L}\p{N}_])@([a-z0-9_]+(?:[a-z0-9_.-]+[a-z0-9_])?)(?:@([\p{L}\p{N}_.-]+[\p{L}\p{N}_](?::\d{1,5}(?!\d))?))?/giu;
  const trim = (raw: string): string => {
    let u = raw;
    for (;;) {
      if (/[.,:;!?'"\u2019\u201d*]$/.test(u)) {
        u = u.slice(0, -1);
        continue;
      }
      const last = u.at(-1) ?? "";
      const open = ({ ")": "(", "]": "[", "}": "{" } as Record<string, string>)[last];
      if (open && u.split(last).length > u.split(open).length) {
        u = u.slice(0, -1);
        continue;
      }
      return u;
    }
  };
  const valid = (u: string): boolean => {
    try {
      const p = new URL(u);
      if (p.protocol === "http:" || p.protocol === "https:")
        return p.hostname.length > 0 && !p.hostname.startsWith(".");
      return u.length > p.protocol.length + 1;
    } catch {
      return false;
    }
  };
  const spans: { start: number; end: number; as: string }[] = [];
  for (const m of text.matchAll(url)) {
    const u = trim(m[0]);
    if (valid(u)) spans.push({ start: m.index, end: m.index + u.length, as: "x".repeat(urlLength) });
  }
  for (const m of text.matchAll(mention)) {
    const end = m.index + m[0].length;
    if (!spans.some((s) => m.index < s.end && end > s.start)) spans.push({ start: m.index, end, as: `@${m[1]}` });
  }
  spans.sort((a, b) => a.start - b.start);
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + s.as;
    at = s.end;
  }
  out += text.slice(at);
  let n = 0;
  for (const _ of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(out)) n++;
  return n;
}
