import { z } from "zod";
import { NOTIFICATION_TYPES, PUSH_ALERT_TYPES } from "../../../services/notifications/types.ts";

/**
 * The one registry every entity schema joins under its Mastodon name, so that `z.toJSONSchema`
 * emits each once and points at it with a `$ref` wherever another entity holds it.
 */
export const entityRegistry = z.registry<{ id: string; description?: string }>();

/** Registers `schema` as the component `name`, with a short description of what it is. */
export function entity<T extends z.ZodType>(name: string, description: string, schema: T): T {
  const described = schema.meta({ description }) as T;
  entityRegistry.add(described, { id: name, description });
  return described;
}

/** An ISO 8601 timestamp as Gannet writes it (`Date#toISOString`). */
export const dateTime = () => z.string().meta({ format: "date-time" });
/** A calendar day (`YYYY-MM-DD`). */
export const date = () => z.string().meta({ format: "date" });
/** An absolute URL. */
export const url = () => z.string().meta({ format: "uri" });
/** Every id is a string of digits (a snowflake-like integer too large for JSON numbers). */
export const id = () => z.string();
/** A count or size: a whole number, never negative. */
export const count = () => z.number().int().nonnegative();

/** Every notification type Gannet creates. */
export const NOTIFICATION_TYPE_NAMES = NOTIFICATION_TYPES;

/** The types a Web Push subscription has an alert for (all but `moderation_warning` and `severed_relationships`). */
export const PUSH_ALERT_TYPE_NAMES = PUSH_ALERT_TYPES;

export const visibility = () => z.enum(["public", "unlisted", "private", "direct"]);
export const filterContext = () => z.enum(["home", "notifications", "public", "thread", "account"]);
