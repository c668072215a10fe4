/** Whether `e` is a unique-index violation, from PostgreSQL (23505) or SQLite. */
export function isUniqueViolation(e: unknown): boolean {
  if (typeof e !== "object" || e === null) return false;
  const { code, message } = e as { code?: unknown; message?: unknown };
  if (code === "23505") return true;
  return typeof message === "string" && message.includes("UNIQUE constraint failed");
}
