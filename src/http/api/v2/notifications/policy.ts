import type { Hono } from "hono";
import { z } from "zod";
import { POLICY_CATEGORIES, policyJson, updatePolicy } from "../../../../services/notifications/policy.ts";
import { currentAccount, requireUser } from "../../../middleware/auth.ts";
import { readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { validate } from "../../../validate.ts";

const READ = ["read", "read:notifications"];
const WRITE = ["write", "write:notifications"];

const value = z.enum(["accept", "filter", "drop"]).optional();
export const policyParams = z.object(
  Object.fromEntries(POLICY_CATEGORIES.map((k) => [k, value])) as Record<
    (typeof POLICY_CATEGORIES)[number],
    typeof value
  >,
);

/** 1.4 Notification policy (v2, Mastodon 4.3). */
export function notificationPolicyRoutes(app: Hono<HonoEnv>): void {
  app.get("/api/v2/notifications/policy", requireUser(...READ), async (c) =>
    c.json(await policyJson(c.env.ctx, currentAccount(c).id)),
  );

  // Rails routes `update` by PATCH and PUT alike (masto.js sends PUT).
  app.on(["PATCH", "PUT"], "/api/v2/notifications/policy", requireUser(...WRITE), async (c) => {
    const ctx = c.env.ctx;
    const accountId = currentAccount(c).id;
    // Any bad category is a 422 and nothing changes.
    const p = validate(policyParams, await readParams(c));
    const changes = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
    await updatePolicy(ctx, accountId, changes);
    return c.json(await policyJson(ctx, accountId));
  });
}
