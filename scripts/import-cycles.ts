/**
 * @module
 * `node scripts/import-cycles.ts`: fails (exit 1) when the project's own TypeScript modules import
 * each other in a cycle, type-only imports and `import("…")` type expressions included.
 *
 * Why type-only edges count: a cycle through types still means two modules cannot be read,
 * changed or moved one without the other (`Env` naming every object class made ten files one
 * knot). Dependency tools that drop type imports, or skip `import("…")` in type positions,
 * report such a project as clean, so the graph is read with the TypeScript scanner itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

/** The folders whose modules must form no cycle. */
export const ROOTS = ["worker", "widget", "demo", "scripts", "test"];

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
 * The project files one module imports: static, dynamic, type-only and `import("…")` types.
 * Bare specifiers (packages) and files outside the scanned set are not edges.
 *
 * @example
 * importsOf("/repo/worker/app.ts", new Set([...])) // ["/repo/worker/routes/checkouts.ts", …]
 */
export function importsOf(file: string, known: ReadonlySet<string>): string[] {
  const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
  const out = new Set<string>();
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith(".")) continue;
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
  return new Map(files.map((file) => [file, importsOf(file, known)]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const graph = projectGraph(root);
  const found = cycles(graph);
  if (found.length === 0) {
    console.log(`import cycles: none in ${graph.size} modules`);
  } else {
    console.error(`import cycles: ${found.length} (type-only imports count)`);
    for (const cycle of found)
      console.error(`  ${cycle.map((f) => relative(root, f)).join(" ↔ ")}`);
    process.exit(1);
  }
}
