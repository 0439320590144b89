import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { cycles, projectGraph } from "../../scripts/import-cycles.ts";

/** A throwaway project tree: `files` maps a path below the root to its source. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "cycles-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** This repository's root (two folders above this file). */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

describe("import cycle check (scripts/import-cycles.ts)", () => {
  it("finds no import cycle in this project (type-only imports included)", () => {
    const found = cycles(projectGraph(ROOT)).map((cycle) =>
      cycle.map((file) => relative(ROOT, file)).join(" ↔ "),
    );
    expect(found).toEqual([]);
  });

  it("finds a cycle made only of type imports and import() type expressions", () => {
    const root = tree({
      "worker/env.ts": 'export interface Env { o: import("./object.ts").O }',
      "worker/object.ts": 'import type { Env } from "./env.ts";\nexport class O { e?: Env }',
      "worker/leaf.ts": 'import { O } from "./object.ts";\nexport const x = O;',
    });
    const found = cycles(projectGraph(root));
    expect(found).toEqual([[join(root, "worker/env.ts"), join(root, "worker/object.ts")]]);
  });

  it("reports nothing for a tree without cycles, and ignores packages", () => {
    const root = tree({
      "worker/a.ts":
        'import { Hono } from "hono";\nimport { b } from "./b.ts";\nexport const a = b;',
      "worker/b.ts": "export const b = 1;",
    });
    expect(cycles(projectGraph(root))).toEqual([]);
  });

  it("counts a module that imports itself", () => {
    expect(cycles(new Map([["a", ["a"]]]))).toEqual([["a"]]);
  });
});
