import { mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  cycles,
  type Layer,
  layerViolations,
  projectGraph,
  readLayers,
} from "../../scripts/import-cycles.ts";

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

/** Three layers for the fixtures: top over mid over low, with a side layer beside mid. */
const LAYERS: Layer[] = [
  { name: "top", path: "worker/top", holds: "", below: ["mid", "side"] },
  { name: "mid", path: "worker/mid", holds: "", below: ["low"] },
  { name: "side", path: "worker/side", holds: "", below: ["low"] },
  { name: "low", path: "worker/low", holds: "", below: [] },
];

describe("layer check (worker/layers.json)", () => {
  it("finds no import against the layers in this project (type-only imports included)", () => {
    expect(layerViolations(projectGraph(ROOT), ROOT, readLayers(ROOT))).toEqual([]);
  });

  it("keeps worker/ to at most 8 folders, each one a layer", () => {
    const layers = new Set(readLayers(ROOT).map((l) => l.path));
    const folders = readdirSync(join(ROOT, "worker"))
      .filter((name) => statSync(join(ROOT, "worker", name)).isDirectory())
      .map((name) => `worker/${name}`);
    expect(folders.length).toBeLessThanOrEqual(8);
    expect(folders.filter((f) => !layers.has(f))).toEqual([]);
  });

  it("reports an upward import, a type-only one too, with the layers it crosses", () => {
    const root = tree({
      "worker/top/a.ts": 'import { m } from "../mid/m.ts";\nexport const a = m;',
      "worker/mid/m.ts": 'import { l } from "../low/l.ts";\nexport const m = l;',
      "worker/low/l.ts": 'import type { A } from "../top/types.ts";\nexport const l: A = 1;',
      "worker/top/types.ts": "export type A = number;",
    });
    expect(layerViolations(projectGraph(root), root, LAYERS)).toEqual([
      "worker/low/l.ts → worker/top/types.ts (low may not import top)",
    ]);
  });

  it("allows a layer below a layer below (transitively), refuses a sibling", () => {
    const root = tree({
      "worker/top/a.ts": 'import { l } from "../low/l.ts";\nexport const a = l;',
      "worker/mid/m.ts": 'import { s } from "../side/s.ts";\nexport const m = s;',
      "worker/side/s.ts": "export const s = 1;",
      "worker/low/l.ts": "export const l = 1;",
    });
    expect(layerViolations(projectGraph(root), root, LAYERS)).toEqual([
      "worker/mid/m.ts → worker/side/s.ts (mid may not import side)",
    ]);
  });

  it("puts a file in the layer with the longest path, and reports a file in no layer", () => {
    const nested: Layer[] = [
      { name: "core", path: "worker/core", holds: "", below: ["core/rules"] },
      { name: "core/rules", path: "worker/core/rules", holds: "", below: [] },
    ];
    const root = tree({
      "worker/core/obj.ts": 'import { r } from "./rules/r.ts";\nexport const o = r;',
      "worker/core/rules/r.ts": 'import { o } from "../other.ts";\nexport const r = o;',
      "worker/core/other.ts": "export const o = 1;",
      "worker/stray.ts": "export const s = 1;",
    });
    expect(layerViolations(projectGraph(root), root, nested)).toEqual([
      "worker/core/rules/r.ts → worker/core/other.ts (core/rules may not import core)",
      "worker/stray.ts is in no layer (worker/layers.json)",
    ]);
  });
});

/** The packages as the project declares them: the worker's lowest layer over the contract. */
const WITH_PACKAGES: Layer[] = [
  { name: "lib", path: "worker/lib", holds: "", below: ["contract"] },
  { name: "server", path: "packages/server", holds: "", below: ["contract"] },
  { name: "contract", path: "packages/contract", holds: "", below: [] },
];

/** A tree with the two workspace packages, named as in this project, plus `files`. */
function packagesTree(files: Record<string, string>): string {
  return tree({
    "packages/contract/package.json": '{ "name": "@crypto-checkout/contract" }',
    "packages/contract/src/rules.ts": "export const RULE = 1;",
    "packages/server/package.json": '{ "name": "@crypto-checkout/server" }',
    "packages/server/src/mint.ts":
      'import { RULE } from "../../contract/src/rules.ts";\nexport const mint = RULE;',
    "worker/lib/claims.ts":
      'import { RULE } from "../../packages/contract/src/rules.ts";\nexport const c = RULE;',
    ...files,
  });
}

describe("layer check over packages/ (worker/layers.json)", () => {
  it("lets the worker and the server package import the contract, by path or by name", () => {
    const root = packagesTree({
      "worker/lib/named.ts":
        'import type { X } from "@crypto-checkout/contract/http-api";\nexport type Y = X;',
    });
    expect(layerViolations(projectGraph(root), root, WITH_PACKAGES)).toEqual([]);
  });

  it("refuses the worker importing the server package, by path or by its name", () => {
    const root = packagesTree({
      "worker/lib/mints.ts":
        'import { mint } from "../../packages/server/src/mint.ts";\nexport const m = mint;',
      "worker/lib/named.ts":
        'import type { MintClaims } from "@crypto-checkout/server";\nexport type C = MintClaims;',
    });
    expect(layerViolations(projectGraph(root), root, WITH_PACKAGES)).toEqual([
      "worker/lib/mints.ts → packages/server/src/mint.ts (lib may not import server)",
      "worker/lib/named.ts → packages/server/package.json (lib may not import server)",
    ]);
  });

  it("refuses the server package importing the worker, a type-only import too", () => {
    const root = packagesTree({
      "packages/server/src/types.ts":
        'export type { C } from "../../../worker/lib/claims.ts";\nexport const t = 1;',
    });
    expect(layerViolations(projectGraph(root), root, WITH_PACKAGES)).toEqual([
      "packages/server/src/types.ts → worker/lib/claims.ts (server may not import lib)",
    ]);
  });

  it("refuses the contract importing the server, the worker or any other file of ours", () => {
    const root = packagesTree({
      "packages/contract/src/bad.ts": [
        'import { mint } from "../../server/src/mint.ts";',
        'import { c } from "../../../worker/lib/claims.ts";',
        'import { w } from "../../../widget/w.ts";',
        "export const bad = [mint, c, w];",
      ].join("\n"),
      "widget/w.ts": "export const w = 1;",
    });
    expect(layerViolations(projectGraph(root), root, WITH_PACKAGES)).toEqual([
      "packages/contract/src/bad.ts → packages/server/src/mint.ts (contract may not import server)",
      "packages/contract/src/bad.ts → worker/lib/claims.ts (contract may not import lib)",
      "packages/contract/src/bad.ts → widget/w.ts (contract may not import outside the layers)",
    ]);
  });

  it("reports a package folder declared in no layer", () => {
    const root = packagesTree({ "packages/extra/src/x.ts": "export const x = 1;" });
    expect(layerViolations(projectGraph(root), root, WITH_PACKAGES)).toEqual([
      "packages/extra/src/x.ts is in no layer (worker/layers.json)",
    ]);
  });

  it("declares this project's packages so: the contract imports nothing, the server only it", () => {
    const layers = new Map(readLayers(ROOT).map((l) => [l.name, l]));
    expect(layers.get("contract")).toMatchObject({ path: "packages/contract", below: [] });
    expect(layers.get("server")).toMatchObject({ path: "packages/server", below: ["contract"] });
    // Nothing may reach the server package: the worker, above all, never imports it.
    expect([...layers.values()].filter((l) => l.below.includes("server"))).toEqual([]);
    const packages = readdirSync(join(ROOT, "packages")).map((name) => `packages/${name}`);
    const declared = new Set([...layers.values()].map((l) => l.path));
    expect(packages.filter((p) => !declared.has(p))).toEqual([]);
  });
});
