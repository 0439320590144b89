/**
 * @module
 * The worker build's one source transform (`worker-build.ts`): each SQL template literal
 * (a template whose text starts with `CREATE`, `INSERT`, `UPDATE`, `DELETE`, `SELECT`, `WITH`,
 * `ALTER`, `REPLACE` or `DROP`) gets every run of whitespace outside quotes turned into one
 * space. SQLite reads any run of whitespace between tokens as one separator, so each statement
 * means the same (`test/node/sql-compaction.test.ts` compares SQLite's `EXPLAIN` of both);
 * the source keeps its readable layout. README "Worker bundle size": ≈ 150 B of gzip.
 *
 * Refused (the build fails, naming the file): a SQL template with a comment (`--`, `/*`: a
 * newline ends a `--` comment), an escaped whitespace or quote (`\` + newline is a line
 * continuation), or a quote left open across `${…}`. Other escapes (`\\_`) are kept as written.
 * The newlines taken out of a template are put back right after it, so every line of the
 * file keeps its number (the source map stays true).
 */
import ts from "typescript";

/** How a SQL template starts (upper case, as every statement in `worker/` is written). */
const SQL_START = /^[ \t\r\n]*(?:CREATE|INSERT|UPDATE|DELETE|SELECT|WITH|ALTER|REPLACE|DROP)\b/;

/** One part of a template's raw text (between its backticks and `${…}`s), compacted. */
function compactPart(raw: string, where: string): string {
  let out = "";
  let quote: string | null = null;
  let spaced = false;
  let escaped = false;
  for (const ch of raw) {
    if (escaped) {
      // `\` + newline is a line continuation, `\'` a quote SQLite sees: neither is compacted.
      if (/[\s'"]/.test(ch)) throw new Error(`${where}: a SQL template escapes a space or quote`);
      out += ch;
      escaped = false;
      continue;
    }
    if (ch === "\\") {
      out += ch;
      escaped = true;
      spaced = false;
      continue;
    }
    if (quote) {
      out += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === " " || ch === "\t" || ch === "\n" || ch === "\r") {
      if (!spaced) out += " ";
      spaced = true;
      continue;
    }
    spaced = false;
    if (ch === "'" || ch === '"') quote = ch;
    if ((ch === "-" && out.endsWith("-")) || (ch === "*" && out.endsWith("/")))
      throw new Error(`${where}: a SQL template with a comment`);
    out += ch;
  }
  if (quote) throw new Error(`${where}: a SQL template with a quote open across \${…}`);
  return out;
}

/** A replacement of `[start, end)` of the source. */
interface Edit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** The edits for one template: each literal part compacted, its newlines moved after it. */
function templateEdits(node: ts.TemplateLiteral, source: string, where: string): Edit[] {
  // [start, end) of each part's raw text, without the backticks, `}` and `${`.
  const parts: [number, number][] = ts.isNoSubstitutionTemplateLiteral(node)
    ? [[node.getStart() + 1, node.end - 1]]
    : [
        [node.head.getStart() + 1, node.head.end - 2],
        ...node.templateSpans.map((span): [number, number] => {
          const tail = ts.isTemplateTail(span.literal);
          return [span.literal.getStart() + 1, span.literal.end - (tail ? 1 : 2)];
        }),
      ];
  const edits: Edit[] = [];
  let removedNewlines = 0;
  for (const [start, end] of parts) {
    const raw = source.slice(start, end);
    const text = compactPart(raw, where);
    removedNewlines += raw.split("\n").length - text.split("\n").length;
    if (text !== raw) edits.push({ start, end, text });
  }
  if (removedNewlines > 0)
    edits.push({ start: node.end, end: node.end, text: "\n".repeat(removedNewlines) });
  return edits;
}

/**
 * Compacts the SQL templates of one TypeScript file; answers the new text and how many
 * templates were compacted.
 *
 * @example
 * compactSqlTemplates("const q = `SELECT a,\n    b FROM t`;", "q.ts");
 * // { code: "const q = `SELECT a, b FROM t`\n;", compacted: 1 }
 */
export function compactSqlTemplates(
  source: string,
  fileName: string,
): { code: string; compacted: number } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const edits: Edit[] = [];
  let compacted = 0;
  const visit = (node: ts.Node): void => {
    if (
      (ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) &&
      !ts.isTaggedTemplateExpression(node.parent) &&
      SQL_START.test(ts.isTemplateExpression(node) ? node.head.text : node.text)
    ) {
      const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      const found = templateEdits(node, source, `${fileName}:${line}`);
      if (found.length > 0) compacted++;
      edits.push(...found);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let code = source;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    code = code.slice(0, edit.start) + edit.text + code.slice(edit.end);
  return { code, compacted };
}
