import { deliver } from "../federation/deliver.ts";
import { DELIVER_JOB } from "../federation/deliveries.ts";
import { deliveryBackoff, FEDERATION_JOBS, runFederationJob } from "../federation/queue.ts";
import { registerResolveJobs } from "../federation/resolve/queue.ts";
import type { JobQueue } from "../infra/queue/interface.ts";
import type { Scheduler } from "../infra/scheduler/scheduler.ts";
import {
  ANNOUNCEMENT_PUBLISH_JOB,
  ANNOUNCEMENT_UNPUBLISH_JOB,
  publishAnnouncementJob,
  unpublishAnnouncementJob,
} from "../services/announcements/events.ts";
import { deliverRemoteMessage, REMOTE_DELIVERY_JOB } from "../services/crypto/messages.ts";
import { ARCHIVE_JOB, buildArchive, purgeOldArchives } from "../services/data/archive.ts";
import { purgeOldImports, runImport } from "../services/data/import-job.ts";
import { IMPORT_ARCHIVE_MS, IMPORT_CONFIRM_MS, IMPORT_JOB } from "../services/data/imports.ts";
import { MOVE_FOLLOWERS_JOB, moveFollowers } from "../services/federation/move.ts";
import { PURGE_REMOTE_ACCOUNT_JOB, purgeRemoteAccount } from "../services/federation/remote-deletes.ts";
import { FAN_OUT_JOB, fanOutStatus } from "../services/feeds/fan-out.ts";
import { MERGE_JOB, mergeIntoHome } from "../services/feeds/merge.ts";
import { AUTHORIZE_ALL_JOB, authorizeAllFollowRequests } from "../services/follows/follow.ts";
import { purgeUnattachedMedia } from "../services/media/media-attachments.ts";
import { MEDIA_PROCESS_JOB, processMediaJob, resumeStalledMediaProcessing } from "../services/media/process-job.ts";
import { cacheRemoteMediaJob, purgeRemoteMediaCache, REMOTE_MEDIA_JOB } from "../services/media/remote-cache.ts";
import {
  DOMAIN_BLOCK_JOB,
  DOMAIN_PURGE_JOB,
  runDomainBlock,
  runDomainPurge,
} from "../services/moderation/domain-purge.ts";
import { pruneExpiredIpBlocks } from "../services/moderation/ip-blocks.ts";
import { notifySeveredRelationships, SEVERED_NOTIFY_JOB } from "../services/moderation/severed-relationships.ts";
import {
  PURGE_SUSPENDED_JOB,
  purgeSuspendedAccount,
  queueDueSuspensionPurges,
} from "../services/moderation/suspension.ts";
import { noticeTrendsForReview, TREND_REVIEW_NOTICE_TASK } from "../services/moderation/trend-review-notice.ts";
import { ADMIN_REPORT_JOB, notifyAdminReport } from "../services/notifications/admin-report.ts";
import { ADMIN_SIGN_UP_JOB, notifyAdminSignUp } from "../services/notifications/admin-sign-up.ts";
import { createNotifications } from "../services/notifications/create.ts";
import { expirePoll, POLL_EXPIRY_JOB } from "../services/polls/expiry.ts";
import { fetchPreviewCard, PREVIEW_CARD_JOB } from "../services/preview-cards/fetch-card.ts";
import { deliverPush, PUSH_JOB } from "../services/push/deliver.ts";
import {
  PUBLISH_JOB,
  publishScheduledStatus,
  queueDueScheduledStatuses,
} from "../services/scheduled-statuses/publish.ts";
import { refreshTrends } from "../services/trends/scoring.ts";

/**
 * Every job handler, registered by name in each process that runs workers. A feature adds its
 * handlers here: `queue.register("feeds.fan-out", fanOut)`, the handler in its own file.
 */
export function registerJobHandlers(queue: JobQueue, opts: { deliveryConcurrency?: number } = {}): void {
  queue.register(FAN_OUT_JOB, fanOutStatus);
  // Fedify's deliveries (a pool of their own, Mastodon's retry schedule) and fan-outs (federation/queue.ts).
  queue.register(FEDERATION_JOBS.outbox, runFederationJob, {
    concurrency: opts.deliveryConcurrency,
    backoff: (attempt) => deliveryBackoff(attempt),
  });
  queue.register(FEDERATION_JOBS.fanout, runFederationJob);
  queue.register(MERGE_JOB, mergeIntoHome);
  queue.register(ANNOUNCEMENT_PUBLISH_JOB, publishAnnouncementJob);
  queue.register(ANNOUNCEMENT_UNPUBLISH_JOB, unpublishAnnouncementJob);
  queue.register(AUTHORIZE_ALL_JOB, authorizeAllFollowRequests);
  queue.register("notifications.create", createNotifications);
  queue.register(MEDIA_PROCESS_JOB, processMediaJob);
  queue.register(POLL_EXPIRY_JOB, expirePoll);
  queue.register(PUBLISH_JOB, publishScheduledStatus);
  queue.register(ADMIN_SIGN_UP_JOB, notifyAdminSignUp);
  queue.register(ADMIN_REPORT_JOB, notifyAdminReport);
  queue.register(PURGE_REMOTE_ACCOUNT_JOB, purgeRemoteAccount);
  queue.register(MOVE_FOLLOWERS_JOB, moveFollowers);
  queue.register(PREVIEW_CARD_JOB, fetchPreviewCard);
  queue.register(REMOTE_MEDIA_JOB, cacheRemoteMediaJob);
  queue.register(PUSH_JOB, deliverPush);
  queue.register(DELIVER_JOB, deliver);
  queue.register(PURGE_SUSPENDED_JOB, purgeSuspendedAccount);
  queue.register(DOMAIN_BLOCK_JOB, runDomainBlock);
  queue.register(DOMAIN_PURGE_JOB, runDomainPurge);
  queue.register(SEVERED_NOTIFY_JOB, notifySeveredRelationships);
  queue.register(REMOTE_DELIVERY_JOB, deliverRemoteMessage);
  queue.register(ARCHIVE_JOB, buildArchive);
  queue.register(IMPORT_JOB, runImport);
  registerResolveJobs(queue);
}

/** Every periodic task; the scheduler runs each in one process only. */
export function registerPeriodicTasks(scheduler: Scheduler): void {
  scheduler.every("kv.purge-expired", 5 * 60_000, (ctx) => ctx.repos.kv.purgeExpired(new Date().toISOString()));
  // Dead jobs stay two weeks for operators to look at.
  scheduler.every("jobs.purge-dead", 3600_000, async (ctx) => {
    await ctx.queue.purgeDead(new Date(Date.now() - 14 * 86400_000));
  });
  // Uploads never attached to a post are removed after a day (rows and files).
  scheduler.every("media.purge-unattached", 3600_000, async (ctx) => {
    await purgeUnattachedMedia(ctx);
  });
  // Uploads whose processing job was never enqueued (a crash right after storing them) get one.
  scheduler.every("media.resume-processing", 10 * 60_000, async (ctx) => {
    await resumeStalledMediaProcessing(ctx);
  });
  // Scheduled statuses whose own job was lost are published by this sweep, a minute late at most.
  scheduler.every("scheduled-statuses.sweep", 60_000, async (ctx) => {
    await queueDueScheduledStatuses(ctx);
  });
  // The change log (migration 0024) keeps its newest 20,000 changes: a process that fell further
  // behind drops all it kept (statuses/kept.ts).
  scheduler.every("render-changes.trim", 60_000, async (ctx) => {
    await ctx.repos.renderChanges.trim(20_000);
  });
  // Cached copies of remote media past MEDIA_CACHE_RETENTION_PERIOD are removed (rows stay).
  scheduler.every("media.purge-remote-cache", 3600_000, async (ctx) => {
    await purgeRemoteMediaCache(ctx);
  });
  // Expired mutes already count as absent when read; this deletes their rows.
  scheduler.every("mutes.purge-expired", 5 * 60_000, async (ctx) => {
    await ctx.repos.relationships.purgeExpiredMutes(new Date().toISOString());
  });
  // Expired IP blocks stopped applying when they expired; this deletes them (Mastodon's IpCleanupScheduler).
  scheduler.every("ip-blocks.purge-expired", 5 * 60_000, async (ctx) => {
    await pruneExpiredIpBlocks(ctx);
  });
  // Accounts suspended here longer than SUSPENSION_PURGE_DELAY_DAYS lose their data (a job each).
  scheduler.every("moderation.purge-suspended", 3600_000, async (ctx) => {
    await queueDueSuspensionPurges(ctx);
  });
  // Trending hashtags, posts and links are scored again (Mastodon's Trends::RefreshWorker).
  scheduler.every("trends.refresh", 5 * 60_000, async (ctx) => {
    await refreshTrends(ctx);
  });
  // Staff with Manage Taxonomies get one e-mail listing new trend candidates waiting for review.
  scheduler.every(TREND_REVIEW_NOTICE_TASK, 10 * 60_000, async (ctx) => {
    await noticeTrendsForReview(ctx);
  });
  // Archives go after a week (Mastodon's BackupCleanupScheduler), imports after a week or, when
  // never confirmed, ten minutes (its ImportsVacuum).
  scheduler.every("data.purge-archives-imports", 3600_000, async (ctx) => {
    await purgeOldArchives(ctx);
    await purgeOldImports(ctx, IMPORT_ARCHIVE_MS, IMPORT_CONFIRM_MS);
  });
}
