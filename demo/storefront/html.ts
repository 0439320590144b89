/**
 * @module
 * A tiny HTML template tag: interpolated values are escaped unless they are already `Html`
 * (from another `html` template or `raw`). Arrays are joined. `null`, `undefined` and `false`
 * render nothing.
 */

/** Markup that is safe to insert as-is. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for element content and quoted attribute values.
 *
 * @example
 * escapeHtml('<a href="x">'); // "&lt;a href=&quot;x&quot;&gt;"
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join("");
  if (value === null || value === undefined || value === false) return "";
  return escapeHtml(String(value));
}

/**
 * @example
 * html`<p>${"<b>"}</p>`.value; // "<p>&lt;b&gt;</p>"
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += render(value) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/**
 * JSON for an inline `<script type="application/json">`: `<` is escaped so the data can never
 * close the script element.
 *
 * @example
 * jsonScript("catalog", { a: "</script>" });
 */
export function jsonScript(id: string, data: unknown): Html {
  const json = JSON.stringify(data).replace(/</g, "\\u003c");
  return new Html(`<script type="application/json" id="${escapeHtml(id)}">${json}</script>`);
}
