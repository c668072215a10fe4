import { html, type SafeHtml } from "../../pages/html.ts";

/** Height of a bar chart's drawing, in its own units (the stylesheet sets its size on the page). */
const HEIGHT = 40;
const BAR = 6;
const GAP = 2;

/**
 * A small bar chart of daily values as inline SVG: the strict CSP blocks `style=` attributes but
 * not SVG geometry, so each bar is a `<rect>` with its height as an attribute, and a `<title>`
 * with the day and value (shown on hover, read by screen readers).
 */
export function barChart(label: string, points: readonly { day: string; value: number; text: string }[]): SafeHtml {
  const max = Math.max(1, ...points.map((p) => p.value));
  const width = Math.max(1, points.length * (BAR + GAP) - GAP);
  const bars = points.map((p, i) => {
    const h = p.value === 0 ? 1 : Math.max(2, Math.round((p.value / max) * HEIGHT));
    const cls = p.value === 0 ? "zero" : "bar";
    return html`<rect class="${cls}" x="${i * (BAR + GAP)}" y="${HEIGHT - h}" width="${BAR}" height="${h}"><title>${p.text}</title></rect>`;
  });
  return html`<svg class="dash-chart" viewBox="0 0 ${width} ${HEIGHT}" preserveAspectRatio="none" role="img" aria-label="${label}" focusable="false">${bars}</svg>`;
}
