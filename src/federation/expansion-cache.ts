import jsonld from "@fedify/vocab-runtime/jsonld";

/**
 * A cache in front of the JSON-LD expansion Fedify's vocabulary runs on every parse.
 *
 * Fedify parses an object by expanding its JSON-LD once per class of its hierarchy: a Create is
 * expanded by `Object.fromJsonLd`, again by `Activity.fromJsonLd`, again by `Create.fromJsonLd`,
 * which hands the expanded form (less its `@type`) to the parent classes' parsers, each of which
 * expands that once more; its inbox parses every activity twice (object integrity proofs, then the
 * activity itself) besides a check of its date literals. Measured: 15 expansions for one incoming
 * Create, a quarter of Fedify's time on the inbox. The results do not change, so:
 *
 * - the expansion of a given JSON object with a given context loader is kept while that object
 *   lives (a `WeakMap` on the object itself: the same parsed body is expanded several times);
 * - an object that is itself the output of an expansion is returned as it is: a node in
 *   expanded form expands to itself.
 *
 * Each caller gets its own copy of the top-level node, because Fedify's parsers delete `@type`
 * from the node they were given before handing it to the parent class; nested nodes are shared,
 * and are never changed, since every parser changes only the top of its own expansion. Only the
 * option set Fedify's vocabulary uses (a document loader, free-floating nodes kept) is cached;
 * any other call goes to jsonld unchanged. Installed once per process (`installExpansionCache`).
 */
type Expand = (input: unknown, options?: Record<string, unknown>) => Promise<unknown[]>;

/** Every node object an expansion made (and the copies handed out), by identity. */
const expanded = new WeakSet<object>();
/** The expansion of a JSON object, per context loader, while the object lives. */
const results = new WeakMap<object, Map<unknown, Promise<unknown[]>>>();

let installed = false;
export const expansionStats = { expanded: 0, reused: 0, alreadyExpanded: 0 };

/**
 * Marks the node objects of an expansion (value objects, `{"@value": ...}`, are most of its
 * objects and never expanded on their own: they are left out, and looked into no further).
 */
function mark(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) if (item !== null && typeof item === "object") mark(item);
    return;
  }
  if (value === null || typeof value !== "object" || "@value" in value || expanded.has(value)) return;
  expanded.add(value);
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === "object") mark(child);
  }
}

/** The nodes of an expansion, each top-level node a fresh (shallow) copy for its caller. */
function handOut(nodes: unknown[]): unknown[] {
  return nodes.map((node) => {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return node;
    const copy = { ...node };
    expanded.add(copy);
    return copy;
  });
}

function cacheable(options: Record<string, unknown> | undefined): options is Record<string, unknown> {
  if (options?.keepFreeFloatingNodes !== true) return false;
  for (const key in options) if (key !== "documentLoader" && key !== "keepFreeFloatingNodes") return false;
  return true;
}

export function installExpansionCache(): void {
  if (installed) return;
  installed = true;
  const library = jsonld as unknown as { expand: Expand };
  const expand = library.expand.bind(library);
  library.expand = (input, options) => {
    if (input === null || typeof input !== "object" || Array.isArray(input) || !cacheable(options)) {
      return expand(input, options);
    }
    if (expanded.has(input)) {
      expansionStats.alreadyExpanded++;
      return Promise.resolve(handOut([input]));
    }
    let byLoader = results.get(input);
    const known = byLoader?.get(options.documentLoader);
    if (known) {
      expansionStats.reused++;
      return known.then(handOut);
    }
    expansionStats.expanded++;
    const result = expand(input, options).then((nodes) => {
      mark(nodes);
      return nodes;
    });
    if (!byLoader) {
      byLoader = new Map();
      results.set(input, byLoader);
    }
    const loaders = byLoader;
    loaders.set(options.documentLoader, result);
    result.catch(() => loaders.delete(options.documentLoader));
    return result.then(handOut);
  };
}
