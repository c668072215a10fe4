import type { AppContext } from "../../context.ts";
import type { Rule } from "../../db/repositories/settings.ts";
import { ApiError, notFound } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import { logAction, type Moderator } from "../moderation/action-log.ts";
import { getRules } from "./site-texts.ts";

/**
 * Managing the server's rules (Mastodon's Admin::RulesController): add, change, move, delete.
 * Each change is written to the action log (`create`, `update`, `destroy` on a `Rule`) in the
 * transaction that makes it. The rules are shown in `position` order.
 */

export type { Rule };

export const RULE_TEXT_MAX = 300;
export const RULE_HINT_MAX = 1000;

const invalid = (message: string) => new ApiError(422, `Validation failed: ${message}`);

function check(input: { text: string; hint: string }): void {
  if (input.text.trim() === "") throw invalid("Text can't be blank");
  if (input.text.length > RULE_TEXT_MAX) throw invalid(`Text is too long (maximum is ${RULE_TEXT_MAX} characters)`);
  if (input.hint.length > RULE_HINT_MAX) throw invalid(`Hint is too long (maximum is ${RULE_HINT_MAX} characters)`);
}

const named = (text: string) => {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 40 ? `${t.slice(0, 39)}…` : t;
};

const ruleRecord = (action: string, id: string, text: string, verb: string) => ({
  action,
  targetType: "Rule",
  targetId: id,
  humanIdentifier: named(text),
  summary: `${verb} the rule "${named(text)}"`,
});

/** The rule, or a 404. */
export async function findRule(ctx: AppContext, id: string): Promise<Rule> {
  const rule = isId(id) ? (await getRules(ctx)).find((r) => r.id === id) : undefined;
  if (!rule) throw notFound();
  return rule;
}

/** Adds a rule at the end (or at `position`). */
export async function createRule(
  ctx: AppContext,
  by: Moderator,
  input: { text: string; hint: string; position?: number },
): Promise<Rule> {
  check(input);
  const rules = await getRules(ctx);
  const position = input.position ?? (rules.length === 0 ? 0 : Math.max(...rules.map((r) => r.position)) + 1);
  const id = ctx.ids.next();
  const at = new Date().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("rules")
      .values({ id, text: input.text, hint: input.hint, position, created_at: at, updated_at: at })
      .execute();
    await logAction(ctx, by, ruleRecord("create", id, input.text, "added"), trx);
  });
  return findRule(ctx, id);
}

/** Changes a rule's text, hint and position. */
export async function updateRule(
  ctx: AppContext,
  by: Moderator,
  id: string,
  input: { text: string; hint: string; position: number },
): Promise<Rule> {
  const rule = await findRule(ctx, id);
  check(input);
  if (!Number.isSafeInteger(input.position)) throw invalid("Position is invalid");
  if (rule.text === input.text && rule.hint === input.hint && rule.position === input.position) return rule;
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable("rules")
      .set({ text: input.text, hint: input.hint, position: input.position, updated_at: new Date().toISOString() })
      .where("id", "=", rule.id)
      .execute();
    await logAction(ctx, by, ruleRecord("update", rule.id, input.text, "changed"), trx);
  });
  return findRule(ctx, id);
}

/**
 * Moves a rule one place up or down: the rules are renumbered 0, 1, 2, ... in their new order
 * (so equal positions left by older versions sort out too).
 */
export async function moveRule(ctx: AppContext, by: Moderator, id: string, direction: "up" | "down"): Promise<void> {
  const rule = await findRule(ctx, id);
  const rules = await getRules(ctx);
  const i = rules.findIndex((r) => r.id === rule.id);
  const j = direction === "up" ? i - 1 : i + 1;
  if (j < 0 || j >= rules.length) return;
  [rules[i], rules[j]] = [rules[j], rules[i]];
  const at = new Date().toISOString();
  await ctx.db.transaction().execute(async (trx) => {
    for (const [position, r] of rules.entries()) {
      if (r.position === position) continue;
      await trx.updateTable("rules").set({ position, updated_at: at }).where("id", "=", r.id).execute();
    }
    await logAction(ctx, by, ruleRecord("update", rule.id, rule.text, `moved ${direction}`), trx);
  });
}

/** Deletes a rule (reports that cited it keep its id only). */
export async function deleteRule(ctx: AppContext, by: Moderator, id: string): Promise<void> {
  const rule = await findRule(ctx, id);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom("rules").where("id", "=", rule.id).execute();
    await logAction(ctx, by, ruleRecord("destroy", rule.id, rule.text, "deleted"), trx);
  });
}
