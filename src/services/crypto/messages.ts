import type { AppContext } from "../../context.ts";
import type { Account } from "../../db/repositories/accounts.ts";
import type { EncryptedMessage, NewEncryptedMessage } from "../../db/repositories/crypto.ts";
import { transactionWithJobs } from "../../infra/queue/after-commit.ts";
import { ApiError } from "../../lib/errors.ts";
import { isId } from "../../lib/ids.ts";
import type { IdWindow } from "../../lib/pagination.ts";
import { serializeEncryptedMessage } from "../../serializers/crypto.ts";
import { encryptedMessagesChannel, publishAll } from "../streaming/channels.ts";
import { type CryptoCaller, deviceOfCaller } from "./devices.ts";
import { sealFranking } from "./franking.ts";

/** The job that sends one message to a device on another server (federation/crypto/outbox.ts). */
export const REMOTE_DELIVERY_JOB = "crypto.deliver-remote";

/** Messages one delivery may carry (one per recipient device). */
export const MAX_DELIVERIES = 100;

export interface DeliveryInput {
  accountId: string;
  deviceId: string;
  type: number;
  body: string;
  hmac: string;
}

/** What the remote-delivery job carries: ciphertext as given, never logged. */
export interface RemoteDelivery {
  accountId: string;
  targetAccountId: string;
  fromDeviceId: string;
  targetDeviceId: string;
  type: number;
  body: string;
  digest: string;
  messageFranking: string;
}

const notFound = () => new ApiError(404, "Record not found");

/** Streams each stored message to its device's connections (the `user` stream of its token). */
async function announce(ctx: AppContext, stored: { id: string; accessTokenId: string }[]): Promise<void> {
  for (const m of stored) {
    await publishAll(ctx, [encryptedMessagesChannel(m.accessTokenId)], "encrypted_message", { id: m.id });
  }
}

/**
 * `POST /api/v1/crypto/deliveries`: the caller's device sends one message to each device named.
 * Every recipient is checked first (an unknown account or local device is a 404 and nothing is
 * sent); local devices get their messages in one transaction, and each remote device's message is
 * queued for its server, as an `EncryptedMessage` in a `Create`. Bodies are ciphertext, stored and
 * sent as given, with a franking token only this server can open (franking.ts).
 */
export async function deliverMessages(
  ctx: AppContext,
  who: CryptoCaller,
  items: readonly DeliveryInput[],
): Promise<void> {
  if (items.length > MAX_DELIVERIES) {
    throw new ApiError(422, `Validation failed: Device is too long (maximum is ${MAX_DELIVERIES} messages)`);
  }
  const source = await deviceOfCaller(ctx, who);
  const ids = [...new Set(items.map((i) => i.accountId))];
  const accounts = new Map(
    (await ctx.repos.accounts.getByIds(ids.filter(isId))).filter((a) => a.suspendedAt === null).map((a) => [a.id, a]),
  );
  const timestamp = new Date().toISOString();
  const local: (NewEncryptedMessage & { accessTokenId: string })[] = [];
  const remote: RemoteDelivery[] = [];
  for (const item of items) {
    const target = accounts.get(item.accountId);
    if (!target) throw notFound();
    const messageFranking = sealFranking(ctx.config.secretKey, {
      hmac: item.hmac,
      sourceAccountId: who.accountId,
      targetAccountId: target.id,
      timestamp,
    });
    if (target.domain !== null) {
      remote.push({
        accountId: who.accountId,
        targetAccountId: target.id,
        fromDeviceId: source.deviceId,
        targetDeviceId: item.deviceId,
        type: item.type,
        body: item.body,
        digest: item.hmac,
        messageFranking,
      });
      continue;
    }
    const device = await ctx.repos.crypto.liveDevice(target.id, item.deviceId);
    if (!device) throw notFound();
    local.push({
      id: ctx.ids.next(),
      deviceRowId: device.id,
      accessTokenId: device.accessTokenId,
      fromAccountId: who.accountId,
      fromDeviceId: source.deviceId,
      type: item.type,
      body: item.body,
      digest: item.hmac,
      messageFranking,
    });
  }
  await transactionWithJobs(ctx, async (trx, jobs) => {
    await ctx.repos.crypto.insertMessages(local, timestamp, trx);
    for (const r of remote) jobs.add(REMOTE_DELIVERY_JOB, r);
  });
  await announce(ctx, local);
}

/** `GET /api/v1/crypto/encrypted_messages`: a page of the caller's device's messages, newest first. */
export async function listMessages(ctx: AppContext, who: CryptoCaller, window: IdWindow): Promise<EncryptedMessage[]> {
  const device = await deviceOfCaller(ctx, who);
  return ctx.repos.crypto.messagesPage(device.id, window);
}

/** `POST /api/v1/crypto/encrypted_messages/clear`: deletes the device's messages up to `upToId`. */
export async function clearMessages(ctx: AppContext, who: CryptoCaller, upToId: string | undefined): Promise<void> {
  const device = await deviceOfCaller(ctx, who);
  // Mastodon compares with a missing id (SQL NULL), which deletes nothing.
  if (upToId === undefined || !isId(upToId)) return;
  await ctx.repos.crypto.clearMessages(device.id, upToId);
}

/**
 * An `EncryptedMessage` from another server, delivered to `recipient`'s own inbox: stored for
 * the recipient's device it names, with this server's franking token wrapping the sender's.
 * False when the recipient has no such device (the message is dropped, as Mastodon drops it).
 */
export async function receiveRemoteMessage(
  ctx: AppContext,
  m: {
    sender: Account;
    recipient: Account;
    fromDeviceId: string;
    targetDeviceId: string;
    type: number;
    body: string;
    digest: string;
    originalFranking: string | undefined;
  },
): Promise<boolean> {
  const device = await ctx.repos.crypto.liveDevice(m.recipient.id, m.targetDeviceId);
  if (!device) return false;
  const at = new Date().toISOString();
  const id = ctx.ids.next();
  const messageFranking = sealFranking(ctx.config.secretKey, {
    hmac: m.digest,
    sourceAccountId: m.sender.id,
    targetAccountId: m.recipient.id,
    originalFranking: m.originalFranking,
    timestamp: at,
  });
  await ctx.repos.crypto.insertMessages(
    [
      {
        id,
        deviceRowId: device.id,
        fromAccountId: m.sender.id,
        fromDeviceId: m.fromDeviceId,
        type: m.type,
        body: m.body,
        digest: m.digest,
        messageFranking,
      },
    ],
    at,
  );
  await announce(ctx, [{ id, accessTokenId: device.accessTokenId }]);
  return true;
}

/** A stored message as the `user` stream of its device's token sends it; undefined when gone. */
export async function streamedEncryptedMessage(
  ctx: AppContext,
  tokenId: string,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const device = await ctx.repos.crypto.deviceOfToken(tokenId);
  const message = device && (await ctx.repos.crypto.message(device.id, id));
  return message && serializeEncryptedMessage(message);
}

/** The `crypto.deliver-remote` job: sends one message to a device on another server. */
export async function deliverRemoteMessage(ctx: AppContext, payload: RemoteDelivery): Promise<void> {
  const { sendEncryptedMessage } = await import("../../federation/crypto/outbox.ts");
  await sendEncryptedMessage(ctx, payload);
}
