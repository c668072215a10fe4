import type { Context, Hono } from "hono";
import { z } from "zod";
import type { AppContext } from "../../../../context.ts";
import { serializeTranslation } from "../../../../serializers/translation.ts";
import type { InFlight } from "../../../../services/translation/languages.ts";
import { translateStatus, translationLanguagesJson } from "../../../../services/translation/translate-status.ts";
import { requireToken, viewerAccount } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { text, validate } from "../../../validate.ts";
import { jsonText, PUBLIC_CACHE } from "../instance/documents.ts";

export const translateSchema = z.object({
  lang: text(35)
    .optional()
    .describe("The language to translate into (default: the reader's locale, else the server's)"),
});

/** The first language of an `Accept-Language` header by preference (`*` aside). */
export function acceptedLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  let best: { tag: string; q: number } | undefined;
  for (const part of header.split(",")) {
    const [tag = "", ...params] = part.trim().split(";");
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (!/^[a-z]{2,3}(?:[-_][a-z0-9]{2,8})*$/i.test(tag) || !(q > 0)) continue;
    if (best === undefined || q > best.q) best = { tag, q };
  }
  return best?.tag;
}

/** Whom a translation is for: `lang`, else the user's locale, else the request's, else the server's. */
function targetLanguage(c: Context<HonoEnv>, lang: string | undefined): string {
  if (lang?.trim()) return lang.trim();
  return (
    c.get("auth")?.user?.locale || acceptedLanguage(c.req.header("accept-language")) || c.env.ctx.config.defaultLocale
  );
}

/** Translation of statuses and the translation languages (issue 17). */
export function translationRoutes(app: Hono<HonoEnv>): void {
  // Language list requests under way, per server (a test process runs several).
  const inFlightByContext = new WeakMap<AppContext, InFlight>();
  const inFlight = (ctx: AppContext) => {
    let m = inFlightByContext.get(ctx);
    if (!m) inFlightByContext.set(ctx, (m = new Map()));
    return m;
  };

  // Mastodon asks only for a token with the scope: an app token may translate public posts.
  app.post("/api/v1/statuses/:id{[0-9]+}/translate", requireToken("read", "read:statuses"), async (c) => {
    const ctx = c.env.ctx;
    const p = validate(translateSchema, await readParams(c));
    const view = await translateStatus(
      ctx,
      { statusId: c.req.param("id"), viewerId: viewerAccount(c)?.id, target: targetLanguage(c, p.lang) },
      inFlight(ctx),
    );
    return c.json(serializeTranslation(view));
  });

  app.get("/api/v1/instance/translation_languages", async (c) => {
    const languages = await translationLanguagesJson(c.env.ctx, inFlight(c.env.ctx));
    return jsonText(c, JSON.stringify(languages), PUBLIC_CACHE.instance);
  });
}
