import { ACCOUNT_LIMITS, MEDIA_LIMITS, POLL_LIMITS, STATUS_LIMITS, SUPPORTED_MIME_TYPES } from "../lib/limits.ts";

/** `configuration.statuses` of instance v1 and v2. */
export function statusesConfiguration(): Record<string, unknown> {
  return {
    max_characters: STATUS_LIMITS.maxCharacters,
    max_media_attachments: STATUS_LIMITS.maxMediaAttachments,
    characters_reserved_per_url: STATUS_LIMITS.charactersReservedPerUrl,
  };
}

/** `configuration.media_attachments`; v1 has no `description_limit`. */
export function mediaConfiguration(version: 1 | 2): Record<string, unknown> {
  return {
    supported_mime_types: [...SUPPORTED_MIME_TYPES],
    ...(version === 2 ? { description_limit: MEDIA_LIMITS.descriptionLimit } : {}),
    image_size_limit: MEDIA_LIMITS.imageSizeLimit,
    image_matrix_limit: MEDIA_LIMITS.imageMatrixLimit,
    video_size_limit: MEDIA_LIMITS.videoSizeLimit,
    video_frame_rate_limit: MEDIA_LIMITS.videoFrameRateLimit,
    video_matrix_limit: MEDIA_LIMITS.videoMatrixLimit,
  };
}

export function pollsConfiguration(): Record<string, unknown> {
  return {
    max_options: POLL_LIMITS.maxOptions,
    max_characters_per_option: POLL_LIMITS.maxCharactersPerOption,
    min_expiration: POLL_LIMITS.minExpiration,
    max_expiration: POLL_LIMITS.maxExpiration,
  };
}

/** `configuration.accounts` of instance v2 (v1 carries only `max_featured_tags`). */
export function accountsConfiguration(): Record<string, unknown> {
  return {
    max_featured_tags: ACCOUNT_LIMITS.maxFeaturedTags,
    max_pinned_statuses: ACCOUNT_LIMITS.maxPinnedStatuses,
    max_display_name_length: ACCOUNT_LIMITS.maxDisplayNameLength,
    max_note_length: ACCOUNT_LIMITS.maxNoteLength,
    max_avatar_description_length: ACCOUNT_LIMITS.maxAvatarDescriptionLength,
    max_header_description_length: ACCOUNT_LIMITS.maxHeaderDescriptionLength,
    max_profile_fields: ACCOUNT_LIMITS.maxProfileFields,
    profile_field_name_limit: ACCOUNT_LIMITS.profileFieldNameLimit,
    profile_field_value_limit: ACCOUNT_LIMITS.profileFieldValueLimit,
  };
}
