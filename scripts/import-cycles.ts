/**
 * @module
 * `node scripts/import-cycles.ts`: fails (exit 1) when the project's own TypeScript modules import
 * each other in a cycle, type-only imports and `import("…")` type expressions included.
 *
 * Why type-only edges count: a cycle through types still means two modules cannot be read,
 * changed or moved one without the other (`Env` naming every object class made ten files one
 * knot). Dependency tools that drop type imports, or skip `import("…")` in type positions,
 * report such a project as clean, so the graph is read with the TypeScript scanner itself.
 *
 * It also fails on an import that runs against the layers (`worker/layers.json`: which folder
 * is which layer and what each may import: the worker's seven, then the workspace packages
 * under `packages/`), type-only imports included, and on a file of `worker/` or `packages/`
 * that belongs to no layer. A workspace package imported by its name (`@crypto-checkout/…`)
 * counts as an import of its folder, so naming a package cannot go around the check.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The folders whose modules must form no cycle. */
export const ROOTS = ["worker", "packages", "widget", "demo", "scripts", "test"];

/** The folders whose files the layer check judges. */
const LAYERED = ["worker/", "packages/"];

const SOURCE = /\.(ts|tsx|mts)$/;

/** Every TypeScript file below `dir`, as absolute paths. */
function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "dist") return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/**
 * The workspace packages below `root`: each `packages/<dir>/package.json`'s name → its folder.
 *
 * @example
 * workspacePackages("/repo") // Map { "@crypto-checkout/contract" => "/repo/packages/contract", … }
 */
export function workspacePackages(root: string): Map<string, string> {
  const dir = join(root, "packages");
  if (!existsSync(dir)) return new Map();
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const manifest = join(dir, name, "package.json");
    if (!existsSync(manifest)) continue;
    out.set((JSON.parse(readFileSync(manifest, "utf8")) as { name: string }).name, join(dir, name));
  }
  return out;
}

/**
 * The project files one module imports: static, dynamic, type-only and `import("…")` types.
 * A workspace package named by its name (`@crypto-checkout/contract/http-api`) is an edge to its
 * folder's `package.json` (the package as a whole); other bare specifiers (dependencies) and
 * files outside the scanned set are not edges.
 *
 * @example
 * importsOf("/repo/worker/app.ts", new Set([...])) // ["/repo/worker/routes/checkouts.ts", …]
 */
export function importsOf(
  file: string,
  known: ReadonlySet<string>,
  workspaces: ReadonlyMap<string, string> = new Map(),
): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const out = new Set<string>();
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith(".")) {
      const folder = [...workspaces].find(
        ([name]) => fileName === name || fileName.startsWith(`${name}/`),
      )?.[1];
      if (folder !== undefined) out.add(join(folder, "package.json"));
      continue;
    }
    const target = resolve(dirname(file), fileName);
    if (known.has(target)) out.add(target);
  }
  return [...out];
}

/**
 * The cycles of a directed graph: each strongly connected component with more than one node
 * (or a node importing itself), by Tarjan's algorithm.
 *
 * @example
 * cycles(new Map([["a", ["b"]], ["b", ["a"]]])) // [["a", "b"]]
 */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) {
      found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** The import graph of the project below `root`. */
export function projectGraph(root: string): Map<string, string[]> {
  const files = ROOTS.flatMap((dir) => sourceFiles(join(root, dir)));
  const known = new Set(files);
  const workspaces = workspacePackages(root);
  return new Map(files.map((file) => [file, importsOf(file, known, workspaces)]));
}

/** One layer of `worker/layers.json`. */
export interface Layer {
  name: string;
  /** A folder or file, repository-relative: the layer holds it and everything below it. */
  path: string;
  holds: string;
  /** The layers directly below this one: it may import them and, through them, their `below`. */
  below: string[];
}

/** The layers file of the project below `root`. */
export const LAYERS_FILE = "worker/layers.json";

/** The layers declared in `root`'s `worker/layers.json`. */
export function readLayers(root: string): Layer[] {
  return (JSON.parse(readFileSync(join(root, LAYERS_FILE), "utf8")) as { layers: Layer[] }).layers;
}

/**
 * The layer a repository-relative file belongs to: the longest layer path containing it; null
 * when none does.
 */
function layerOf(file: string, layers: readonly Layer[]): Layer | null {
  let best: Layer | null = null;
  for (const layer of layers) {
    const holds = file === layer.path || file.startsWith(`${layer.path}/`);
    if (holds && (best === null || layer.path.length > best.path.length)) best = layer;
  }
  return best;
}

/** Each layer's name → every layer it may import (its `below`, transitively). */
function reachable(layers: readonly Layer[]): Map<string, Set<string>> {
  const byName = new Map(layers.map((l) => [l.name, l]));
  const out = new Map<string, Set<string>>();
  for (const layer of layers) {
    const seen = new Set<string>();
    const todo = [...layer.below];
    while (todo.length > 0) {
      const name = todo.pop() as string;
      if (seen.has(name)) continue;
      if (!byName.has(name))
        throw new Error(`${LAYERS_FILE}: ${layer.name} names unknown layer ${name}`);
      seen.add(name);
      todo.push(...(byName.get(name) as Layer).below);
    }
    if (seen.has(layer.name)) throw new Error(`${LAYERS_FILE}: ${layer.name} is below itself`);
    out.set(layer.name, seen);
  }
  return out;
}

/**
 * Every import that runs against the layers (a lower layer importing a higher one, or a layer
 * importing one that is not below it, or anything of ours outside the layers), and every file in
 * no layer, as readable lines. Only files below `worker/` and `packages/` are judged.
 *
 * @example
 * layerViolations(projectGraph(root), root, readLayers(root))
 * // ["worker/lib/log.ts → worker/edge/http/types.ts (lib may not import edge)",
 * //  "packages/server/src/types.ts → worker/lib/api/x.ts (server may not import lib)"]
 */
export function layerViolations(
  graph: ReadonlyMap<string, readonly string[]>,
  root: string,
  layers: readonly Layer[],
): string[] {
  const may = reachable(layers);
  const found: string[] = [];
  for (const [file, imports] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    const from = relative(root, file).split(sep).join("/");
    if (!LAYERED.some((dir) => from.startsWith(dir))) continue;
    const own = layerOf(from, layers);
    if (own === null) {
      found.push(`${from} is in no layer (${LAYERS_FILE})`);
      continue;
    }
    for (const target of imports) {
      const to = relative(root, target).split(sep).join("/");
      const theirs = layerOf(to, layers);
      if (theirs === own || (theirs !== null && may.get(own.name)?.has(theirs.name))) continue;
      found.push(
        `${from} → ${to} (${own.name} may not import ${theirs?.name ?? "outside the layers"})`,
      );
    }
  }
  return found;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const graph = projectGraph(root);
  const found = cycles(graph);
  const upward = layerViolations(graph, root, readLayers(root));
  if (found.length === 0) {
    console.log(`import cycles: none in ${graph.size} modules`);
  } else {
    console.error(`import cycles: ${found.length} (type-only imports count)`);
    for (const cycle of found)
      console.error(`  ${cycle.map((f) => relative(root, f)).join(" ↔ ")}`);
  }
  if (upward.length === 0) {
    console.log(`layers: no import against ${LAYERS_FILE}`);
  } else {
    console.error(`layers: ${upward.length} imports against ${LAYERS_FILE}`);
    for (const line of upward) console.error(`  ${line}`);
  }
  if (found.length > 0 || upward.length > 0) process.exit(1);
}
