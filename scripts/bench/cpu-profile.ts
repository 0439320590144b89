/**
 * @module
 * Summaries of a V8 CPU profile (`.cpuprofile`, the Chrome DevTools protocol's `Profile`):
 * self time per function and total (inclusive) time per function name, for
 * `scripts/bench/profile-node.ts`.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/** Self time (ms) per profile node: each sample's time delta, summed on the node it hit. */
function selfMsById(profile: Profile): Map<number, number> {
  const self = new Map<number, number>();
  const deltas = profile.timeDeltas ?? [];
  (profile.samples ?? []).forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (deltas[i + 1] ?? deltas[i] ?? 0) / 1000);
  });
  return self;
}

/** Self time (ms) per function (name + location), and the sample total. */
export function selfTimes(profile: Profile): { rows: [string, number][]; totalMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const byName = new Map<string, number>();
  let totalMs = 0;
  for (const [id, msSpent] of selfMsById(profile)) {
    const f = byId.get(id)!.callFrame;
    const file = f.url.split("/").slice(-2).join("/");
    const key = `${f.functionName || "(anonymous)"} ${file}:${f.lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + msSpent);
    totalMs += msSpent;
  }
  return { rows: [...byName].sort((a, b) => b[1] - a[1]), totalMs };
}

/** Total (inclusive) time per function name, over the whole tree. */
export function totalTimes(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = selfMsById(profile);
  const totals = new Map<string, number>();
  const walk = (id: number, onPath: Set<string>): number => {
    const node = byId.get(id)!;
    let sum = self.get(id) ?? 0;
    const name = node.callFrame.functionName || "(anonymous)";
    const first = !onPath.has(name);
    if (first) onPath.add(name);
    for (const child of node.children ?? []) sum += walk(child, onPath);
    if (first) {
      onPath.delete(name);
      totals.set(name, (totals.get(name) ?? 0) + sum);
    }
    return sum;
  };
  const root = profile.nodes[0];
  if (root) walk(root.id, new Set());
  return totals;
}

/** Self time (ms) per source file (the path from `worker/`, `node_modules/<pkg>` or `node:`). */
export function selfByFile(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const files = new Map<string, number>();
  for (const [id, msSpent] of selfMsById(profile)) {
    const url = byId.get(id)!.callFrame.url;
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
    const file = m
      ? `node_modules/${m[1]}`
      : url.includes("/worker/")
        ? url.slice(url.indexOf("/worker/") + 1)
        : url.includes("/scripts/") || url.includes("/demo/")
          ? "(harness)"
          : url || `(${byId.get(id)!.callFrame.functionName || "native"})`;
    files.set(file, (files.get(file) ?? 0) + msSpent);
  }
  return [...files].sort((a, b) => b[1] - a[1]);
}
