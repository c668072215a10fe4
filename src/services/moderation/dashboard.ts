/**
 * The admin dashboard (Mastodon's Admin::Metrics): measures, dimensions and retention, computed
 * from Gannet's own tables (Mastodon keeps some of them as Redis counters; what each key counts
 * here is in docs/moderation.md, "Dashboard and hashtags"). Read only: nothing to log.
 */
export { type DimensionItem, type DimensionJson, dimensions } from "./metrics/dimensions.ts";
export { MEASURES, type MeasureJson, measures } from "./metrics/measures.ts";
export type { MetricParams } from "./metrics/params.ts";
export { type CohortJson, retention } from "./metrics/retention.ts";
