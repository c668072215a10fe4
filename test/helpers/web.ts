/**
 * Page tests: a cookie-keeping client for the server's HTML pages, and readers of the HTML
 * (parsed with node-html-parser) for forms, fields and text.
 */
import assert from "node:assert/strict";
import { type HTMLElement, parse } from "node-html-parser";
import type { ApiResponse, TestServer } from "./server.ts";

export type FormValues = Record<string, string | string[]>;

export interface Page extends ApiResponse<string> {
  /** The parsed document (an empty one when the answer is not HTML). */
  doc: HTMLElement;
}

/** Parses HTML into a queryable tree. */
export function parseHtml(html: string): HTMLElement {
  return parse(html, { comment: false });
}

/** One browser: keeps cookies across requests, reads pages, submits their forms. */
export class WebClient {
  readonly cookies = new Map<string, string>();
  readonly s: TestServer;
  constructor(s: TestServer) {
    this.s = s;
  }

  async request(
    path: string,
    opts: { method?: string; form?: FormValues; multipart?: FormData; headers?: Record<string, string> } = {},
  ): Promise<Page> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const r = await this.s.request<string>(path, {
      method: opts.method,
      form: opts.form,
      multipart: opts.multipart,
      headers,
    });
    for (const line of r.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const html = typeof r.body === "string" ? r.body : "";
    return { ...r, doc: parseHtml(html) };
  }

  get(path: string, headers?: Record<string, string>): Promise<Page> {
    return this.request(path, { headers });
  }

  /**
   * Submits the form of `page` that posts to `action` (the `index`-th such form): its current
   * values (hidden and visible inputs, checked boxes, selected options, textareas) with `values`
   * laid over them. A File value or a `multipart` form is sent as multipart/form-data.
   */
  async submit(
    page: Page,
    action: string,
    values: FormValues = {},
    opts: { index?: number; files?: Record<string, Blob & { name?: string }> } = {},
  ): Promise<Page> {
    const form = findForm(page.doc, action, opts.index);
    const fields = { ...formValues(form), ...values };
    const method = (form.getAttribute("method") ?? "get").toUpperCase();
    if (method === "GET") {
      const q = new URLSearchParams();
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) q.append(k, x);
      return this.get(`${action}${action.includes("?") ? "&" : "?"}${q}`);
    }
    if (opts.files || form.getAttribute("enctype") === "multipart/form-data") {
      const fd = new FormData();
      for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) fd.append(k, x);
      for (const [k, f] of Object.entries(opts.files ?? {})) fd.append(k, f, f.name ?? "file");
      return this.request(action, { method: "POST", multipart: fd });
    }
    return this.request(action, { method: "POST", form: fields });
  }

  /** Follows a redirect answer (asserting it is one) and returns the page it leads to. */
  async follow(page: Page): Promise<Page> {
    assert.ok(page.status >= 300 && page.status < 400, `expected a redirect, got ${page.status}:\n${page.body}`);
    const location = page.headers.get("location") ?? "";
    const url = new URL(location, this.s.url);
    assert.equal(url.origin, new URL(this.s.url).origin, `redirect leaves the server: ${location}`);
    return this.get(`${url.pathname}${url.search}`);
  }
}

/** The form posting to `action` (asserting it exists). */
export function findForm(doc: HTMLElement, action: string, index = 0): HTMLElement {
  const forms = doc.querySelectorAll("form").filter((f) => (f.getAttribute("action") ?? "") === action);
  const form = forms[index];
  assert.ok(form, `no form posting to ${action} in page:\n${doc.toString().slice(0, 4000)}`);
  return form;
}

/** What a browser would send for a form as it stands (no submit buttons). */
export function formValues(form: HTMLElement): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const put = (name: string, value: string) => {
    const prev = out[name];
    out[name] = prev === undefined ? value : [...[prev].flat(), value];
  };
  for (const el of form.querySelectorAll("input, select, textarea")) {
    const name = el.getAttribute("name");
    if (!name || el.hasAttribute("disabled")) continue;
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") ?? "text").toLowerCase();
    if (tag === "input") {
      if (type === "submit" || type === "button" || type === "file" || type === "image") continue;
      if ((type === "checkbox" || type === "radio") && !el.hasAttribute("checked")) continue;
      put(name, el.getAttribute("value") ?? (type === "checkbox" || type === "radio" ? "on" : ""));
    } else if (tag === "select") {
      const options = el.querySelectorAll("option");
      const selected = options.filter((o) => o.hasAttribute("selected"));
      const chosen = selected.length > 0 ? selected : el.hasAttribute("multiple") ? [] : options.slice(0, 1);
      for (const o of chosen) put(name, o.getAttribute("value") ?? o.text);
    } else {
      put(name, el.text);
    }
  }
  return out;
}

/** The visible text of the first element matching `selector` (asserting it exists). */
export function textOf(doc: HTMLElement, selector: string): string {
  const el = doc.querySelector(selector);
  assert.ok(el, `no ${selector} in page:\n${doc.toString().slice(0, 4000)}`);
  return el.text.replace(/\s+/g, " ").trim();
}

/** The page's main error or notice text (role=alert), if any. */
export function alertText(doc: HTMLElement): string | undefined {
  return doc.querySelector('[role="alert"]')?.text.replace(/\s+/g, " ").trim();
}

/** The newest mail sent to `to`, from the server's log mailer. */
export function lastMailTo(s: TestServer, to: string): { subject: string; text: string } {
  const mail = s.ctx.mailer.recent.findLast((m) => m.to === to);
  assert.ok(mail, `no mail to ${to}`);
  return mail;
}

/** The first link to this server in a mail's text, as path and query. */
export function linkIn(s: TestServer, text: string, pathPrefix: string): string {
  const base = new URL(s.url);
  for (const m of text.matchAll(/https?:\/\/[^\s)>"]+/g)) {
    const u = new URL(m[0]);
    if (u.pathname.startsWith(pathPrefix)) return `${u.pathname}${u.search}`;
  }
  assert.fail(`no ${pathPrefix} link (server ${base.host}) in mail:\n${text}`);
}

/** A browser session signed in as `u` through the sign-in form (e-mail and password). */
export async function signIn(s: TestServer, u: { user: { email: string }; password: string }): Promise<WebClient> {
  const web = new WebClient(s);
  const page = await web.get("/auth/sign_in");
  const form = findForm(page.doc, "/auth/sign_in");
  const login = form.querySelector("input[type=email], input[autocomplete=username]")?.getAttribute("name");
  const password = form.querySelector("input[type=password]")?.getAttribute("name");
  if (!login || !password) throw new Error("sign-in form fields not found");
  const r = await web.submit(page, "/auth/sign_in", { [login]: u.user.email, [password]: u.password });
  if (r.status < 300 || r.status >= 400) throw new Error(`sign-in failed: ${r.status}`);
  return web;
}
