import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/**
 * Counts writes to chosen tables made through this process's Kysely instance, so in-process
 * caches (the token cache) can tell when what they hold may be stale. Every write query is seen
 * here, whichever repository issues it: no caller has to remember to invalidate anything.
 */
/** The target of a raw `INSERT INTO t`, `UPDATE t` or `DELETE FROM t` (optionally quoted). */
const RAW_WRITE_TARGET =
  /^\s*(?:insert\s+(?:or\s+\w+\s+)?into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?[\s(]/i;

export class ChangeTracker implements KyselyPlugin {
  #generation = 0;
  readonly #tables: ReadonlySet<string>;

  constructor(tables: Iterable<string>) {
    this.#tables = new Set(tables);
  }

  /** Grows whenever a tracked table may have changed. */
  get generation(): number {
    return this.#generation;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.touches(args.node)) this.#generation++;
    return args.node;
  }

  /**
   * Counts a change once more. On PostgreSQL a write is counted again once it has committed
   * (db/pg-commits.ts): a reader that took the stamp after the first count but read the rows
   * before the commit must not keep them under a stamp that no longer moves.
   */
  bump(): void {
    this.#generation++;
  }

  /** Whether the query may write a tracked table. */
  touches(node: RootOperationNode): boolean {
    return node.kind !== "SelectQueryNode" && this.#touchesTracked(node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }

  #touchesTracked(node: RootOperationNode): boolean {
    if (node.kind === "RawNode") {
      const first = (node as unknown as { sqlFragments: readonly string[] }).sqlFragments[0] ?? "";
      if (/^\s*(select|pragma)\b/i.test(first)) return false;
      // A plain INSERT, UPDATE or DELETE names its one target table first: only a tracked one
      // counts (the fan-out's writes to `feeds`, the job queue's to `jobs`, would otherwise empty
      // the token cache at every statement). Anything else counts as a change to everything.
      const target = RAW_WRITE_TARGET.exec(first);
      return target === null || this.#tables.has(target[1]?.toLowerCase() ?? "");
    }
    let found = false;
    const visit = (n: unknown): void => {
      if (found || n === null || typeof n !== "object") return;
      if (Array.isArray(n)) {
        for (const x of n) visit(x);
        return;
      }
      const o = n as OperationNode & Record<string, unknown>;
      if (o.kind === "TableNode") {
        const name = (o as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
        if (this.#tables.has(name)) found = true;
        return;
      }
      for (const k in o) if (k !== "kind") visit(o[k]);
    };
    visit(node);
    return found;
  }
}
