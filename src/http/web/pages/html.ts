/** Markup that is already safe to insert (built by `html` or `raw`). */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML element content and (quoted) attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);
}

function render(v: unknown): string {
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  if (v === null || v === undefined || v === false) return "";
  return escapeHtml(String(v));
}

/** Template tag: every interpolated value is escaped unless it is `SafeHtml` (arrays are joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new SafeHtml(out);
}

/** Hidden form fields, one per entry with a value. */
export function hiddenFields(fields: Record<string, string | undefined>): SafeHtml {
  return html`${Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}`;
}
