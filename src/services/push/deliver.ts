import type { RequestDetails } from "web-push";
import type { AppContext } from "../../context.ts";
import type { PushSubscription } from "../../db/repositories/push-subscriptions.ts";
import { PermanentJobError } from "../../infra/queue/interface.ts";
import { ForbiddenAddressError, UnsupportedUrlError } from "../../lib/net/errors.ts";
import { serializeAccount } from "../../serializers/account.ts";
import { mediaUrls } from "../accounts/views.ts";
import { getVapidKeys } from "../instance/vapid.ts";
import type { KnownNotificationType } from "../notifications/types.ts";
import { buildPushPayload } from "./payload.ts";
import { openToken } from "./token-box.ts";

export const PUSH_JOB = "push.deliver";

export interface PushJob {
  subscriptionId: string;
  notificationId: string;
}

/** A notification just stored, as the push hook needs it. */
export interface CreatedNotification {
  id: string;
  accountId: string;
  fromAccountId: string;
  type: KnownNotificationType;
  /** Held back by the recipient's notification policy: not pushed (Mastodon). */
  filtered?: boolean;
}

/** Mastodon keeps undelivered pushes for two days at the push service. */
const TTL_SECONDS = 48 * 3600;
/** A push service answers with a few bytes; more is not read. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Does the subscription's policy let a notification from `fromId` reach `recipientId`? */
async function policyAllows(ctx: AppContext, sub: PushSubscription, fromId: string): Promise<boolean> {
  switch (sub.policy) {
    case "all":
      return true;
    case "none":
      return false;
    case "followed":
      return (await ctx.repos.follows.followedAmong(sub.accountId, [fromId])).has(fromId);
    case "follower":
      return (await ctx.repos.follows.followedAmong(fromId, [sub.accountId])).has(sub.accountId);
  }
}

/**
 * Called wherever a notification is stored: one push job per subscription of the recipient whose
 * alerts include the type and whose policy lets the sender through.
 */
export async function notificationCreated(ctx: AppContext, n: CreatedNotification): Promise<void> {
  if (n.filtered) return;
  const subs = await ctx.repos.pushSubscriptions.activeForAccount(n.accountId);
  const jobs = [];
  for (const sub of subs) {
    if (!sub.alerts.includes(n.type)) continue;
    if (!(await policyAllows(ctx, sub, n.fromAccountId))) continue;
    const payload: PushJob = { subscriptionId: sub.id, notificationId: n.id };
    jobs.push({ name: PUSH_JOB, payload, options: { dedupeKey: `${PUSH_JOB}:${sub.id}:${n.id}`, attempts: 5 } });
  }
  if (jobs.length > 0) await ctx.queue.enqueueMany(jobs);
}

/** The VAPID `sub` claim: the contact address, else the server's URL (an https: URL or mailto:). */
function vapidSubject(ctx: AppContext): string {
  if (ctx.config.siteContactEmail) return `mailto:${ctx.config.siteContactEmail}`;
  const host = ctx.config.webDomain.replace(/:\d+$/, "");
  // web-push warns about a localhost https: subject (some push services refuse it).
  return host === "localhost" ? "mailto:admin@localhost" : `https://${ctx.config.webDomain}`;
}

/**
 * The `push.deliver` job: encrypts and signs the payload with `web-push` (aes128gcm for a
 * subscription that asked for the standard, Mastodon's legacy aesgcm otherwise) and sends it
 * through the guarded client. 404/410 drop the subscription; 429, 5xx and network failures are
 * retried by the queue; other refusals are final.
 */
export async function deliverPush(ctx: AppContext, job: PushJob): Promise<void> {
  if (typeof job?.subscriptionId !== "string" || typeof job.notificationId !== "string") return;
  const sub = await ctx.repos.pushSubscriptions.getById(job.subscriptionId);
  if (!sub) return;
  const notification = await ctx.repos.notifications.get(sub.accountId, job.notificationId);
  if (!notification) return;
  // Sealed under another secret key: nothing sensible can be sent.
  const accessToken = openToken(ctx.config.secretKey, sub.tokenBox);
  if (accessToken === undefined) return;
  const [from, status, user] = await Promise.all([
    ctx.repos.accounts.getById(notification.fromAccountId),
    notification.statusId ? ctx.repos.statuses.getById(notification.statusId) : undefined,
    ctx.repos.users.getByAccountId(sub.accountId),
  ]);
  if (!from) return;
  const icon = String(serializeAccount({ account: from }, mediaUrls(ctx)).avatar_static);
  const payload = buildPushPayload({
    accessToken,
    locale: user?.locale || ctx.config.defaultLocale,
    notification,
    from,
    status: status ?? null,
    icon,
  });
  const vapid = await getVapidKeys(ctx);
  // web-push (and its JWT and ASN.1 modules) is loaded when the first push goes out.
  const { default: webpush } = await import("web-push");
  let details: RequestDetails;
  try {
    details = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { p256dh: sub.keyP256dh, auth: sub.keyAuth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: vapidSubject(ctx), publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        TTL: TTL_SECONDS,
        contentEncoding: sub.standard ? "aes128gcm" : "aesgcm",
        urgency: "normal",
      },
    );
  } catch (e) {
    throw new PermanentJobError(`push request could not be built: ${(e as Error).message}`);
  }
  let res: Response;
  try {
    res = await ctx.guardedFetch(details.endpoint, {
      method: details.method,
      headers: details.headers,
      body: details.body ? new Uint8Array(details.body) : undefined,
      maxBytes: MAX_RESPONSE_BYTES,
    });
  } catch (e) {
    if (e instanceof ForbiddenAddressError || e instanceof UnsupportedUrlError) {
      throw new PermanentJobError(`push endpoint refused: ${e.message}`);
    }
    throw e;
  }
  await res.body?.cancel().catch(() => {});
  if (res.status === 404 || res.status === 410) {
    await ctx.repos.pushSubscriptions.deleteById(sub.id, sub.endpoint);
    return;
  }
  if (res.ok) return;
  if (res.status === 429 || res.status >= 500) throw new Error(`push service answered ${res.status}`);
  throw new PermanentJobError(`push service refused the message: ${res.status}`);
}
