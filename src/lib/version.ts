/**
 * Who this server says it is. Clients switch features on by comparing the Mastodon-style version
 * at the start of `version` and `api_versions.mastodon`: raise both here, together, when the API
 * surface catches up with a newer Mastodon release.
 */

export const SOFTWARE_NAME = "gannet";
export const GANNET_VERSION = "0.1.0";
/** The Mastodon release whose client API Gannet answers like. */
export const MASTODON_COMPAT_VERSION = "4.5.0";
/** `api_versions.mastodon` of that release (7: quote posts, which clients switch on by it). */
export const MASTODON_API_VERSION = 7;
export const GANNET_HOMEPAGE = "https://github.com/gannet-social/gannet";

/** `4.3.0 (compatible; Gannet 0.1.0)`: the `version` of instance v1 and v2. */
export function instanceVersion(): string {
  return `${MASTODON_COMPAT_VERSION} (compatible; Gannet ${GANNET_VERSION})`;
}
