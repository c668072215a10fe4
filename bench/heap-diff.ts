// `node --max-old-space-size=4000 bench/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot`: what
// grew between two heap snapshots of one process (the soak's, BENCH_SOAK_HEAPSNAPSHOT=DIR; V8 keeps
// an object's id from one snapshot to the next in a process). Prints
//   1. self size and count by constructor (strings, code, arrays... by their kind), early and late;
//   2. the objects new in the late snapshot, grouped by their nearest retainer that already
//      existed in the early one (a cache's Map, a listener list...), with the path of the top ones
//      up to a named object;
//   3. the Maps, Sets, Arrays and objects present in both whose number of slots grew the most,
//      with what holds them.
// Diagnosis only: it parses both files whole (some 10 times their size in memory).
import { readFileSync } from "node:fs";

interface Snapshot {
  nodes: number[];
  edges: number[];
  strings: string[];
  nf: number;
  ef: number;
  n: number;
  firstEdge: Uint32Array;
  types: string[];
  edgeTypes: string[];
  /** Retainers of node i: retFrom[retStart[i] .. retStart[i + 1]), by edge retEdge[...]. */
  retStart: Uint32Array;
  retFrom: Uint32Array;
  retEdge: Uint32Array;
}

function load(file: string): Snapshot {
  const s = JSON.parse(readFileSync(file, "utf8"));
  const meta = s.snapshot.meta;
  const nf = meta.node_fields.length as number;
  const ef = meta.edge_fields.length as number;
  const nodes = s.nodes as number[];
  const edges = s.edges as number[];
  const n = nodes.length / nf;
  const firstEdge = new Uint32Array(n + 1);
  for (let i = 0, e = 0; i < n; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + 4] as number;
  }
  firstEdge[n] = edges.length / ef;
  const count = new Uint32Array(n + 1);
  for (let e = 0; e < edges.length / ef; e++) (count[(edges[e * ef + 2] as number) / nf] as number)++;
  const retStart = new Uint32Array(n + 1);
  for (let i = 0, acc = 0; i <= n; i++) {
    retStart[i] = acc;
    acc += count[i] as number;
  }
  const retFrom = new Uint32Array(edges.length / ef);
  const retEdge = new Uint32Array(edges.length / ef);
  const fill = retStart.slice();
  for (let i = 0; i < n; i++) {
    for (let e = firstEdge[i] as number; e < (firstEdge[i + 1] as number); e++) {
      const to = (edges[e * ef + 2] as number) / nf;
      const at = (fill[to] as number)++;
      retFrom[at] = i;
      retEdge[at] = e;
    }
  }
  return {
    nodes,
    edges,
    strings: s.strings,
    nf,
    ef,
    n,
    firstEdge,
    types: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    retStart,
    retFrom,
    retEdge,
  };
}

const type = (s: Snapshot, i: number) => s.types[s.nodes[i * s.nf] as number] as string;
const name = (s: Snapshot, i: number) => s.strings[s.nodes[i * s.nf + 1] as number] as string;
const id = (s: Snapshot, i: number) => s.nodes[i * s.nf + 2] as number;
const size = (s: Snapshot, i: number) => s.nodes[i * s.nf + 3] as number;
const kindOf = (s: Snapshot, i: number) => (type(s, i) === "object" ? name(s, i) : `(${type(s, i)})`);
const label = (s: Snapshot, i: number) => `${type(s, i)}:${name(s, i).slice(0, 50)}#${id(s, i)}`;
function edgeLabel(s: Snapshot, e: number): string {
  const t = s.edgeTypes[s.edges[e * s.ef] as number];
  const v = s.edges[e * s.ef + 1] as number;
  return t === "element" || t === "hidden" ? `[${v}]` : `${s.strings[v]}`;
}
/** The first retainer of node i by a strong edge, and that edge's label. */
function retainer(s: Snapshot, i: number): [number, string] | undefined {
  for (let r = s.retStart[i] as number; r < (s.retStart[i + 1] as number); r++) {
    const e = s.retEdge[r] as number;
    if (s.edgeTypes[s.edges[e * s.ef] as number] !== "weak") return [s.retFrom[r] as number, edgeLabel(s, e)];
  }
  return undefined;
}
function byKind(s: Snapshot): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (let i = 0; i < s.n; i++) {
    const v = out.get(kindOf(s, i)) ?? [0, 0];
    v[0]++;
    v[1] += size(s, i);
    out.set(kindOf(s, i), v);
  }
  return out;
}
/** Slots of a collection: its table's or elements' edges, and its own properties. */
function slots(s: Snapshot, i: number): number {
  let n = 0;
  for (let e = s.firstEdge[i] as number; e < (s.firstEdge[i + 1] as number); e++) {
    const t = s.edgeTypes[s.edges[e * s.ef] as number];
    const l = edgeLabel(s, e);
    if (l === "table" || l === "elements") {
      const to = (s.edges[e * s.ef + 2] as number) / s.nf;
      n += (s.firstEdge[to + 1] as number) - (s.firstEdge[to] as number);
    } else if (t === "property") n++;
  }
  return n;
}
const COLLECTIONS = new Set(["Map", "Set", "Array", "Object"]);
const kb = (b: number) => (b / 1024).toFixed(0).padStart(8);

const [earlyFile, lateFile] = process.argv.slice(2);
if (!earlyFile || !lateFile) throw new Error("usage: bench/heap-diff.ts EARLY.heapsnapshot LATE.heapsnapshot");
const early = load(earlyFile);
const earlyKinds = byKind(early);
const earlyIds = new Set<number>();
const earlySlots = new Map<number, number>();
for (let i = 0; i < early.n; i++) {
  earlyIds.add(id(early, i));
  if (type(early, i) === "object" && COLLECTIONS.has(name(early, i))) earlySlots.set(id(early, i), slots(early, i));
}
const late = load(lateFile);
const lateKinds = byKind(late);

console.log("## By constructor: count and KB added; KB early, late");
const kinds = [...new Set([...earlyKinds.keys(), ...lateKinds.keys()])].map((k) => {
  const a = earlyKinds.get(k) ?? [0, 0];
  const b = lateKinds.get(k) ?? [0, 0];
  return { k, dn: b[0] - a[0], ds: b[1] - a[1], a: a[1], b: b[1] };
});
kinds.sort((x, y) => y.ds - x.ds);
for (const r of kinds.slice(0, 30))
  console.log(`${String(r.dn).padStart(9)} ${kb(r.ds)} ${kb(r.a)} ${kb(r.b)}  ${r.k}`);

console.log("\n## New objects by nearest retainer that existed early: count, KB, holder (edge)");
const groups = new Map<number, { count: number; bytes: number; edge: string }>();
for (let i = 0; i < late.n; i++) {
  if (earlyIds.has(id(late, i))) continue;
  let cur = i;
  let edge = "";
  for (let d = 0; d < 100 && !earlyIds.has(id(late, cur)); d++) {
    const r = retainer(late, cur);
    if (r === undefined) break;
    [cur, edge] = r;
  }
  const g = groups.get(cur) ?? { count: 0, bytes: 0, edge };
  g.count++;
  g.bytes += size(late, i);
  groups.set(cur, g);
}
const top = [...groups].sort((x, y) => y[1].bytes - x[1].bytes).slice(0, 25);
for (const [holder, g] of top)
  console.log(`${String(g.count).padStart(9)} ${kb(g.bytes)}  ${label(late, holder)} .${g.edge}`);
console.log("\nRetainer paths of the first five (up to 8 steps):");
for (const [holder] of top.slice(0, 5)) {
  const path: string[] = [];
  let cur: number | undefined = holder;
  for (let d = 0; d < 8 && cur !== undefined; d++) {
    const r = retainer(late, cur);
    path.push(`${label(late, cur)}${r ? ` <-${r[1]}-` : ""}`);
    cur = r?.[0];
  }
  console.log(`  ${path.join(" ")}`);
}

console.log("\n## Collections in both whose slots grew most: early -> late, holder");
const grown: [number, number, number][] = [];
for (let i = 0; i < late.n; i++) {
  if (type(late, i) !== "object" || !COLLECTIONS.has(name(late, i))) continue;
  const before = earlySlots.get(id(late, i));
  if (before === undefined) continue;
  const now = slots(late, i);
  if (now - before > 100) grown.push([i, before, now]);
}
grown.sort((x, y) => y[2] - y[1] - (x[2] - x[1]));
for (const [i, a, b] of grown.slice(0, 20)) {
  const r = retainer(late, i);
  console.log(
    `${String(a).padStart(8)} -> ${String(b).padEnd(8)} ${label(late, i)} held by ${r ? `${label(late, r[0])}.${r[1]}` : "?"}`,
  );
}
