/**
 * The shipped Caddy recipe (deploy/caddy/Caddyfile), run by Debian's Caddy in front of a real
 * Gannet on loopback with a self-signed certificate (`tls cert key` instead of the automatic
 * ones, which would need the internet): sign-in, the API, streaming, uploads and forwarded
 * headers, all through the proxy over HTTPS. Skipped when Caddy is not installed.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { checkThroughProxy, proxySetup, startProxy } from "./proxy-harness.ts";

const CADDY = "/usr/bin/caddy";
const RECIPE = join(import.meta.dirname, "../../deploy/caddy/Caddyfile");

function substitute(text: string, from: string, to: string): string {
  assert.ok(text.includes(from), `deploy/caddy/Caddyfile no longer contains "${from}"`);
  return text.split(from).join(to);
}

/** The recipe on loopback ports with the test's certificate, Caddy's state kept in `dir`. */
function caddyfile(
  recipe: string,
  p: { httpPort: number; httpsPort: number; gannetPort: number; certFile: string; keyFile: string; dir: string },
): string {
  let s = recipe;
  // No admin endpoint (port 2019), no system trust store, state in the temp dir, no port 80/443.
  s = substitute(
    s,
    "email admin@gannet.example",
    [
      "admin off",
      "skip_install_trust",
      `storage file_system ${join(p.dir, "state")}`,
      `http_port ${p.httpPort}`,
      `https_port ${p.httpsPort}`,
      "default_bind 127.0.0.1",
    ].join("\n\t"),
  );
  s = substitute(s, "grace_period 10s", "grace_period 1s");
  s = substitute(s, "\ngannet.example {", `\nhttps://127.0.0.1:${p.httpsPort} {`);
  s = substitute(
    s,
    "# tls /etc/ssl/gannet/fullchain.pem /etc/ssl/gannet/privkey.pem",
    `tls ${p.certFile} ${p.keyFile}`,
  );
  s = substitute(s, "127.0.0.1:3000", `127.0.0.1:${p.gannetPort}`);
  return s;
}

test("Caddy recipe in front of Gannet", {
  skip: existsSync(CADDY) ? false : "caddy not installed: proxy test skipped",
}, async (t) => {
  const { dir, httpPort, httpsPort, base, server, cert, started } = await proxySetup(t, "caddy");
  const config = join(dir, "Caddyfile");
  await writeFile(
    config,
    caddyfile(await readFile(RECIPE, "utf8"), {
      httpPort,
      httpsPort,
      gannetPort: Number(new URL(server.url).port),
      ...cert,
      dir,
    }),
  );
  // Caddy keeps its own files under HOME and XDG directories: the temp dir's.
  const env = { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir };
  const proxy = started(await startProxy(CADDY, ["run", "--adapter", "caddyfile", "--config", config], httpsPort, env));
  try {
    await checkThroughProxy(t, server, base, cert.pem, { httpPort, cachesMedia: false });
  } catch (e) {
    throw new Error(`${(e as Error).message}\ncaddy output:\n${proxy.output()}`, { cause: e });
  }
});
