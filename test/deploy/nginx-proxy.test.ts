/**
 * The shipped nginx recipe (deploy/nginx/gannet.conf), run by Debian's nginx in front of a real
 * Gannet on loopback, with a self-signed certificate: sign-in, the API, streaming, uploads and
 * forwarded headers, all through the proxy over HTTPS. Skipped when nginx is not installed.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { userInfo } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { checkThroughProxy, proxySetup, startProxy } from "./proxy-harness.ts";

const NGINX = "/usr/sbin/nginx";
const RECIPE = join(import.meta.dirname, "../../deploy/nginx/gannet.conf");

/** Replaces `from` (which must be there: the recipe changed otherwise) by `to` everywhere. */
function substitute(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `deploy/nginx/gannet.conf no longer contains "${from}"`);
  return text.split(from).join(to);
}

/** The recipe with loopback ports, the test's certificate and a cache in `dir`. */
export function nginxSite(
  recipe: string,
  p: { httpPort: number; httpsPort: number; gannetPort: number; certFile: string; keyFile: string; dir: string },
): string {
  let s = recipe;
  s = substitute(s, "    listen [::]:80;\n", "");
  s = substitute(s, "    listen [::]:443 ssl http2;\n", "");
  s = substitute(s, "listen 80;", `listen 127.0.0.1:${p.httpPort};`);
  s = substitute(s, "listen 443 ssl http2;", `listen 127.0.0.1:${p.httpsPort} ssl http2;`);
  s = substitute(s, "server 127.0.0.1:3000;", `server 127.0.0.1:${p.gannetPort};`);
  s = substitute(s, "/etc/letsencrypt/live/gannet.example/fullchain.pem", p.certFile);
  s = substitute(s, "/etc/letsencrypt/live/gannet.example/privkey.pem", p.keyFile);
  s = substitute(s, "/var/cache/nginx/gannet", join(p.dir, "cache"));
  return s;
}

/** The main configuration around the site: foreground, every file in `dir`. */
function nginxMain(dir: string): string {
  const temp = (name: string) => `${name}_temp_path ${join(dir, "temp", name)};`;
  return [
    "daemon off;",
    "worker_processes 1;",
    // Workers run as the current user: as root nginx would switch to nobody, who cannot read `dir`.
    ...(process.getuid?.() === 0 ? [`user ${userInfo().username};`] : []),
    `pid ${join(dir, "nginx.pid")};`,
    `error_log ${join(dir, "error.log")} warn;`,
    "events { worker_connections 256; }",
    "http {",
    `  access_log ${join(dir, "access.log")};`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((n) => `  ${temp(n)}`),
    `  include ${join(dir, "gannet.conf")};`,
    "}",
    "",
  ].join("\n");
}

test("nginx recipe in front of Gannet", {
  skip: existsSync(NGINX) ? false : "nginx not installed: proxy test skipped",
}, async (t) => {
  const { dir, httpPort, httpsPort, base, server, cert, started } = await proxySetup(t, "nginx");
  await mkdir(join(dir, "temp"));
  const site = nginxSite(await readFile(RECIPE, "utf8"), {
    httpPort,
    httpsPort,
    gannetPort: Number(new URL(server.url).port),
    ...cert,
    dir,
  });
  await writeFile(join(dir, "gannet.conf"), site);
  await writeFile(join(dir, "nginx.conf"), nginxMain(dir));
  const args = ["-p", `${dir}/`, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")];
  const proxy = started(await startProxy(NGINX, args, httpsPort));
  try {
    await checkThroughProxy(t, server, base, cert.pem, { httpPort, cachesMedia: true });
  } catch (e) {
    const log = await readFile(join(dir, "error.log"), "utf8").catch(() => "");
    throw new Error(`${(e as Error).message}\nnginx error log:\n${log}${proxy.output()}`, { cause: e });
  }
});
