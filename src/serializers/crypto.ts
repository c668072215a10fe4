/** What the end-to-end encryption entities are made of (Mastodon 3.3 to 4.2, `REST::Keys::*`). */
export interface DeviceKeysView {
  deviceId: string;
  name: string;
  fingerprintKey: string;
  identityKey: string;
}

export interface ClaimResultView {
  accountId: string;
  deviceId: string;
  keyId: string;
  key: string;
  signature: string;
}

export interface EncryptedMessageView {
  id: string;
  fromAccountId: string;
  fromDeviceId: string;
  type: number;
  body: string;
  digest: string;
  messageFranking: string;
  createdAt: string;
}

/** `REST::Keys::DeviceSerializer`. */
export function serializeDeviceKeys(d: DeviceKeysView): Record<string, unknown> {
  return { device_id: d.deviceId, name: d.name, identity_key: d.identityKey, fingerprint_key: d.fingerprintKey };
}

/** `REST::Keys::QueryResultSerializer`: an account and its devices. */
export function serializeQueryResult(r: { accountId: string; devices: DeviceKeysView[] }): Record<string, unknown> {
  return { account_id: r.accountId, devices: r.devices.map(serializeDeviceKeys) };
}

/** `REST::Keys::ClaimResultSerializer`: one claimed one-time key. */
export function serializeClaimResult(r: ClaimResultView): Record<string, unknown> {
  return { account_id: r.accountId, device_id: r.deviceId, key_id: r.keyId, key: r.key, signature: r.signature };
}

/** `REST::EncryptedMessageSerializer`: `account_id` and `device_id` are the sender's. */
export function serializeEncryptedMessage(m: EncryptedMessageView): Record<string, unknown> {
  return {
    id: m.id,
    account_id: m.fromAccountId,
    device_id: m.fromDeviceId,
    type: m.type,
    body: m.body,
    digest: m.digest,
    message_franking: m.messageFranking,
    created_at: m.createdAt,
  };
}
