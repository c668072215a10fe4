import { makeSqliteTemplate, removeSqliteTemplate, SQLITE_TEMPLATE_ENV } from "./db-template.ts";
import { ensureKeyPool } from "./test-keys.ts";

/**
 * Run once by `npm test` (`--test-global-setup`) before any test file starts: prepares what every
 * test process would otherwise make for itself (docs/testing.md, "Keeping the suite fast"). A file
 * run on its own, without it, works as before (its keys come from the same pool, made on first use).
 */
export async function globalSetup(): Promise<void> {
  const [template] = await Promise.all([process.env.DATABASE_URL ? undefined : makeSqliteTemplate(), ensureKeyPool()]);
  // Inherited by the test processes, which the runner starts after this.
  if (template) process.env[SQLITE_TEMPLATE_ENV] = template;
}

export async function globalTeardown(): Promise<void> {
  const template = process.env[SQLITE_TEMPLATE_ENV];
  if (template) await removeSqliteTemplate(template);
}
