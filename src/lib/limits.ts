/**
 * The server's content limits, in one place: the instance endpoints advertise them and the
 * services that create statuses, polls, media and profiles enforce them. Values are Mastodon's
 * defaults, so clients that assume Mastodon's numbers behave the same here.
 */

const MiB = 1024 * 1024;

export const STATUS_LIMITS = {
  /** Characters in text plus content warning. */
  maxCharacters: 500,
  /** Every URL counts as this many characters, whatever its length. */
  charactersReservedPerUrl: 23,
  maxMediaAttachments: 4,
} as const;

export const POLL_LIMITS = {
  minOptions: 2,
  maxOptions: 4,
  maxCharactersPerOption: 50,
  /** Seconds: five minutes. */
  minExpiration: 300,
  /** Seconds: one month (30.436875 days). */
  maxExpiration: 2_629_746,
} as const;

export const ACCOUNT_LIMITS = {
  maxPinnedStatuses: 5,
  maxFeaturedTags: 10,
  maxDisplayNameLength: 30,
  maxNoteLength: 500,
  maxProfileFields: 4,
  profileFieldNameLimit: 255,
  profileFieldValueLimit: 255,
  maxAvatarDescriptionLength: 150,
  maxHeaderDescriptionLength: 150,
} as const;

export const MEDIA_LIMITS = {
  /** Alt text characters. */
  descriptionLimit: 1500,
  imageSizeLimit: 16 * MiB,
  /** Pixels (width × height) an image may have before it is scaled down. */
  imageMatrixLimit: 33_177_600,
  videoSizeLimit: 99 * MiB,
  videoMatrixLimit: 8_294_400,
  videoFrameRateLimit: 120,
} as const;

export const IMAGE_MIME_TYPES = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/heic",
  "image/heif",
  "image/webp",
  "image/avif",
] as const;

export const VIDEO_MIME_TYPES = ["video/webm", "video/mp4", "video/quicktime", "video/ogg"] as const;

export const AUDIO_MIME_TYPES = [
  "audio/wave",
  "audio/wav",
  "audio/x-wav",
  "audio/x-pn-wave",
  "audio/vnd.wave",
  "audio/ogg",
  "audio/vorbis",
  "audio/mpeg",
  "audio/mp3",
  "audio/webm",
  "audio/flac",
  "audio/aac",
  "audio/m4a",
  "audio/x-m4a",
  "audio/mp4",
  "audio/3gpp",
  "video/x-ms-asf",
] as const;

/** Every MIME type an upload may have, in the order Mastodon lists them. */
export const SUPPORTED_MIME_TYPES: readonly string[] = [...IMAGE_MIME_TYPES, ...VIDEO_MIME_TYPES, ...AUDIO_MIME_TYPES];
