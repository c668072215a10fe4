import type { Context, Hono } from "hono";
import { ApiError, notFound } from "../../../../lib/errors.ts";
import { serializeWebPushSubscription } from "../../../../serializers/web-push-subscription.ts";
import { getVapidKeys } from "../../../../services/instance/vapid.ts";
import { PUSH_ALERT_TYPES } from "../../../../services/notifications/types.ts";
import {
  PUSH_POLICIES,
  type PushPolicy,
  type SubscriptionInput,
  subscribe,
  subscriptionForToken,
  unsubscribe,
  updateSubscription,
} from "../../../../services/push/subscriptions.ts";
import { bearerToken, currentAccount, requireUser } from "../../../middleware/auth.ts";
import { asHash, readParams } from "../../../params.ts";
import type { HonoEnv } from "../../../types.ts";
import { boolish } from "../../../validate.ts";

type Tree = Record<string, unknown>;

/** Rails' boolean cast: anything but false, 0, "0", "f", "false", "off" (any case) and blank is true. */
function railsTrue(v: unknown): boolean {
  if (v === undefined || v === null || v === "" || v === false || v === 0) return false;
  if (typeof v === "string") return !["0", "f", "false", "off"].includes(v.trim().toLowerCase());
  return true;
}

/** `data[alerts][<type>]` for every type the server notifies about, and `data[policy]`. */
function parseData(p: Tree): { alerts: string[]; policy: PushPolicy } {
  const data = asHash(p.data) ?? {};
  const given = asHash(data.alerts) ?? {};
  const alerts = PUSH_ALERT_TYPES.filter((t) => railsTrue(given[t]));
  const raw = data.policy;
  if (raw === undefined || raw === null || raw === "") return { alerts, policy: "all" };
  if (typeof raw !== "string" || !(PUSH_POLICIES as readonly string[]).includes(raw)) {
    throw new ApiError(422, "Validation failed: Policy is not included in the list");
  }
  return { alerts, policy: raw as PushPolicy };
}

function parseSubscription(p: Tree): SubscriptionInput {
  const s = asHash(p.subscription);
  if (!s) throw new ApiError(400, "param is missing or the value is empty: subscription");
  const keys = asHash(s.keys) ?? {};
  const problems: string[] = [];
  const field = (v: unknown, name: string): string => {
    if (typeof v === "string" && v.trim() !== "") return v.trim();
    problems.push(`${name} can't be blank`);
    return "";
  };
  const endpoint = field(s.endpoint, "Endpoint");
  const p256dh = field(keys.p256dh, "Key p256dh");
  const auth = field(keys.auth, "Key auth");
  if (problems.length > 0) throw new ApiError(422, `Validation failed: ${problems.join(", ")}`);
  const standard = s.standard === undefined || s.standard === "" ? false : boolish.safeParse(s.standard);
  if (standard !== false && !standard.success) throw new ApiError(422, "Validation failed: Standard is not a boolean");
  return { endpoint, p256dh, auth, standard: standard !== false && standard.data, ...parseData(p) };
}

function tokenOf(c: Context<HonoEnv>) {
  const auth = c.get("auth");
  if (!auth) throw new ApiError(401, "The access token is invalid");
  return auth.token;
}

/** 1.23 Web Push: one subscription per access token (scope `push`). */
export function pushRoutes(app: Hono<HonoEnv>): void {
  const guard = requireUser("push");

  app.post("/api/v1/push/subscription", guard, async (c) => {
    const ctx = c.env.ctx;
    const input = parseSubscription(await readParams(c));
    const token = tokenOf(c);
    const sub = await subscribe(
      ctx,
      { tokenId: token.id, token: bearerToken(c) ?? "", accountId: currentAccount(c).id },
      input,
    );
    return c.json(serializeWebPushSubscription(sub, (await getVapidKeys(ctx)).publicKey));
  });

  app.get("/api/v1/push/subscription", guard, async (c) => {
    const ctx = c.env.ctx;
    const sub = await subscriptionForToken(ctx, tokenOf(c).id);
    if (!sub) throw notFound();
    return c.json(serializeWebPushSubscription(sub, (await getVapidKeys(ctx)).publicKey));
  });

  app.put("/api/v1/push/subscription", guard, async (c) => {
    const ctx = c.env.ctx;
    const { alerts, policy } = parseData(await readParams(c));
    const sub = await updateSubscription(ctx, tokenOf(c).id, alerts, policy);
    return c.json(serializeWebPushSubscription(sub, (await getVapidKeys(ctx)).publicKey));
  });

  app.delete("/api/v1/push/subscription", guard, async (c) => {
    await unsubscribe(c.env.ctx, tokenOf(c).id);
    return c.json({});
  });
}
