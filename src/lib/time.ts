/** ISO 8601 with milliseconds and Z, as stored in every timestamp column. */
export const nowIso = (): string => new Date().toISOString();

export const isoIn = (ms: number): string => new Date(Date.now() + ms).toISOString();

/** Mastodon renders account `created_at` truncated to midnight UTC. */
export function midnight(iso: string): string {
  return `${iso.slice(0, 10)}T00:00:00.000Z`;
}
