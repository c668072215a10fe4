import { z } from "zod";
import { dateTime, entity, id } from "./common.ts";
import { Status, TrendsLink } from "./statuses.ts";

export const AdminTrendsStatus = entity(
  "AdminTrendsStatus",
  "A post among the trend candidates as moderators see it: the Status, and `requires_review` while no moderator has approved or rejected it.",
  Status.extend({ requires_review: z.boolean() }),
);

export const AdminTrendsLink = entity(
  "AdminTrendsLink",
  "A link among the trend candidates as moderators see it: the Trends::Link (PreviewCard and its week of shares), its id, and `requires_review` while neither the link nor its publisher has been approved or rejected.",
  TrendsLink.extend({ id: id(), requires_review: z.boolean() }),
);

export const AdminPreviewCardProvider = entity(
  "AdminPreviewCardProvider",
  "A publisher (the host name links come from) as moderators review it: `trendable` applies to its links that have no decision of their own.",
  z.object({
    id: id(),
    domain: z.string(),
    trendable: z.boolean(),
    reviewed_at: dateTime().nullable(),
    requested_review_at: dateTime().nullable(),
    requires_review: z.boolean(),
  }),
);
