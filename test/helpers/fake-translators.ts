import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * Small loopback servers speaking the HTTP interfaces of DeepL (API v2) and LibreTranslate, as
 * far as Gannet uses them. They "translate" by upper-casing the text of the HTML they are given,
 * leaving tags, entities and whatever is marked `translate="no"` alone, as the real services do
 * with HTML. Every request is recorded; `mode` makes them fail in the ways real ones do.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

/** `ok`, an HTTP status with an error body, a 200 that is not JSON, JSON of the wrong shape, or no answer at all. */
export type FakeMode = "ok" | "garbage" | "wrong-shape" | "hang" | { status: number };

export interface FakeTranslator {
  url: string;
  requests: RecordedRequest[];
  mode: { translate: FakeMode; languages: FakeMode };
  /** The recorded requests to a path (`/v2/translate`, `/languages`, ...). */
  to(path: string): RecordedRequest[];
  close(): Promise<void>;
}

const VOID = new Set(["br", "hr", "img", "input", "meta", "link", "wbr"]);

/** Upper-cases the text of `html`, outside tags, entities and `translate="no"` elements. */
export function fakeTranslate(html: string): string {
  const stack: boolean[] = [];
  return html
    .split(/(<[^>]*>|&[#a-zA-Z0-9]+;)/)
    .map((part) => {
      if (part.startsWith("&")) return part;
      if (part.startsWith("<")) {
        const m = /^<(\/?)([a-zA-Z0-9]+)/.exec(part);
        const name = m?.[2]?.toLowerCase() ?? "";
        if (m?.[1]) stack.pop();
        else if (m && !VOID.has(name) && !part.endsWith("/>")) {
          stack.push((stack.at(-1) ?? false) || /\stranslate="no"/.test(part));
        }
        return part;
      }
      return stack.at(-1) ? part : part.toUpperCase();
    })
    .join("");
}

type Handler = (req: RecordedRequest, res: ServerResponse) => void;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Answers per `mode`; true when it did (the handler then stays out). */
function misbehave(mode: FakeMode, res: ServerResponse, wrongShape: unknown): boolean {
  if (mode === "ok") return false;
  if (mode === "hang") return true;
  if (mode === "garbage") {
    res.writeHead(200, { "content-type": "text/html" });
    res.end("<html><body>Bad gateway, probably</body></html>");
  } else if (mode === "wrong-shape") sendJson(res, 200, wrongShape);
  else sendJson(res, mode.status, { message: `failing with ${mode.status}` });
  return true;
}

async function startFake(handle: (fake: FakeTranslator) => Handler): Promise<FakeTranslator> {
  const fake: FakeTranslator = {
    url: "",
    requests: [],
    mode: { translate: "ok", languages: "ok" },
    to: (path) => fake.requests.filter((r) => r.path === path),
    close: async () => {},
  };
  const handler = handle(fake);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const recorded = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      fake.requests.push(recorded);
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return fake;
}

/** DeepL API v2: `POST /v2/translate` (form) and `GET /v2/languages?type=`, behind `DeepL-Auth-Key`. */
export function startFakeDeepL(apiKey: string): Promise<FakeTranslator> {
  const sources = ["DE", "EN", "FR", "JA"];
  const targets = ["DE", "EN-GB", "EN-US", "FR", "JA", "PT-BR", "PT-PT"];
  return startFake((fake) => (req, res) => {
    if (req.headers.authorization !== `DeepL-Auth-Key ${apiKey}`) return sendJson(res, 403, { message: "Forbidden" });
    if (req.method === "GET" && req.path === "/v2/languages") {
      if (misbehave(fake.mode.languages, res, { languages: "all of them" })) return;
      const list = req.query.get("type") === "target" ? targets : sources;
      return sendJson(
        res,
        200,
        list.map((language) => ({ language, name: language })),
      );
    }
    if (req.method === "POST" && req.path === "/v2/translate") {
      if (misbehave(fake.mode.translate, res, { translations: [] })) return;
      const form = new URLSearchParams(req.body);
      const source = form.get("source_lang") ?? "EN";
      return sendJson(res, 200, {
        translations: form
          .getAll("text")
          .map((text) => ({ detected_source_language: source, text: fakeTranslate(text) })),
      });
    }
    sendJson(res, 404, { message: "Not found" });
  });
}

/** LibreTranslate: `POST /translate` (JSON, key in the body) and `GET /languages`. */
export function startFakeLibreTranslate(apiKey: string): Promise<FakeTranslator> {
  const languages = [
    { code: "en", name: "English", targets: ["de", "en", "fr"] },
    { code: "de", name: "German", targets: ["de", "en"] },
    { code: "fr", name: "French", targets: ["en", "fr"] },
  ];
  return startFake((fake) => (req, res) => {
    if (req.method === "GET" && req.path === "/languages") {
      if (misbehave(fake.mode.languages, res, [{ name: "English" }])) return;
      return sendJson(res, 200, languages);
    }
    if (req.method === "POST" && req.path === "/translate") {
      let body: { q?: string[]; source?: string; api_key?: string };
      try {
        body = JSON.parse(req.body);
      } catch {
        return sendJson(res, 400, { error: "Invalid request" });
      }
      if (body.api_key !== apiKey) return sendJson(res, 403, { error: "Invalid API key" });
      if (misbehave(fake.mode.translate, res, { translatedText: 42 })) return;
      const q = body.q ?? [];
      return sendJson(res, 200, {
        translatedText: q.map(fakeTranslate),
        ...(body.source === "auto" ? { detectedLanguage: q.map(() => ({ confidence: 90, language: "fr" })) } : {}),
      });
    }
    sendJson(res, 404, { error: "Not Found" });
  });
}
