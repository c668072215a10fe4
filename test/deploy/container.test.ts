/**
 * The container recipe (deploy/container) and the settings files of the other recipes. No
 * container engine runs where the tests run, so the image is not built here: these checks keep
 * the files in step with the code (the compose file parses, every setting it sets is one Gannet
 * knows and accepts, the image runs the server as `npm start` does on the pinned Node).
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/index.ts";

const ROOT = join(import.meta.dirname, "../..");
const DIR = join(ROOT, "deploy/container");
const read = (...p: string[]) => readFileSync(join(ROOT, ...p), "utf8");

/** Every name quoted in the config module: the settings Gannet reads. */
const configSource = readdirSync(join(ROOT, "src/config"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => read("src/config", f))
  .join("\n");
function assertKnown(name: string, where: string): void {
  assert.ok(configSource.includes(`"${name}"`), `${where} sets ${name}, which Gannet does not read`);
}

/** Compose's `${NAME:?message}` and `${NAME:-default}`, with `values` for the names. */
function interpolate(v: string, values: Record<string, string>): string {
  return v.replace(/\$\{([A-Z_]+)(?::[?-]([^}]*))?\}/g, (_, name: string, rest = "") => values[name] ?? rest);
}

interface ComposeService {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  ports?: string[];
  volumes?: string[];
}

const compose = parse(readFileSync(join(DIR, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const gannetServices = Object.entries(compose.services).filter(([, s]) => s.build !== undefined);

test("compose.yaml: Gannet's web and worker, PostgreSQL and Redis, built from the checkout", () => {
  assert.deepEqual(Object.keys(compose.services).sort(), ["postgres", "redis", "web", "worker"]);
  assert.deepEqual(gannetServices.map(([name]) => name).sort(), ["web", "worker"]);
  for (const [name, s] of gannetServices) {
    const build = s.build as { context: string; dockerfile: string };
    assert.ok(existsSync(join(DIR, build.context, build.dockerfile)), `${name}: ${JSON.stringify(build)}`);
    assert.ok(s.volumes?.includes("gannet-data:/data"), `${name} does not mount the data volume`);
  }
  assert.deepEqual(compose.services.web.ports, ["127.0.0.1:3000:3000"]);
  assert.ok("gannet-data" in compose.volumes);
});

test("compose.yaml: every setting is one Gannet knows, and together they make a valid split server", () => {
  const values = { LOCAL_DOMAIN: "gannet.example", SECRET_KEY: "k".repeat(64), POSTGRES_PASSWORD: "pw" };
  const roles = new Set<string>();
  for (const [name, s] of gannetServices) {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.environment ?? {})) {
      assertKnown(k, `compose.yaml's ${name}`);
      env[k] = interpolate(String(v), values);
    }
    const config = loadConfig(env, { createDataDir: false });
    assert.equal(config.baseUrl, "https://gannet.example", name);
    assert.equal(config.databaseUrl, "postgres://gannet:pw@postgres:5432/gannet");
    for (const [role, on] of Object.entries(config.roles)) if (on) roles.add(role);
  }
  assert.deepEqual([...roles].sort(), ["scheduler", "streaming", "web", "worker"]);
});

test("the Dockerfile runs the server as npm start does, on the Node version package.json pins", () => {
  const dockerfile = readFileSync(join(DIR, "Dockerfile"), "utf8");
  const pkg = JSON.parse(read("package.json"));
  assert.equal(/^ARG NODE_VERSION=(\S+)$/m.exec(dockerfile)?.[1], pkg.devDependencies.node);
  const run = /&& node (.*dist\/current\/main\.js)$/.exec(pkg.scripts.start)?.[1];
  assert.ok(run, `package.json's start script changed: ${pkg.scripts.start}`);
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(dockerfile)?.[1] ?? "[]") as string[];
  assert.deepEqual(cmd, ["node", ...run.split(" ")]);
  // ENV NAME=value lines, continued with backslashes.
  const envBlock = /^ENV ((?:.*\\\n)*.*)$/m.exec(dockerfile)?.[1] ?? "";
  // The environment `npm start` exports before node (malloc's settings) is the image's too.
  const startEnv = [
    ...(/export ((?:[A-Z_]+=\S+ ?)+)&&/.exec(pkg.scripts.start)?.[1] ?? "").matchAll(/([A-Z_]+)=(\S+)/g),
  ];
  assert.ok(startEnv.length > 0, "npm start exports malloc's settings");
  for (const [pair] of startEnv) assert.ok(envBlock.includes(pair), `the Dockerfile lacks ${pair}`);
  const exported = new Set(startEnv.map(([, name]) => name));
  for (const [, name] of envBlock.matchAll(/([A-Z_]+)=/g)) {
    if (name !== "NODE_ENV" && !exported.has(name)) assertKnown(name, "the Dockerfile");
  }
  const ignore = readFileSync(join(DIR, "Dockerfile.dockerignore"), "utf8");
  for (const [, src] of dockerfile.matchAll(/^COPY (?!--from)(\S+)/gm)) {
    assert.ok(existsSync(join(ROOT, src)), `the Dockerfile copies ${src}, which is not in the checkout`);
    assert.ok(ignore.includes(`!${src.replace(/^\.\//, "")}`), `Dockerfile.dockerignore leaves out ${src}`);
  }
});

test("the systemd environment file sets only settings Gannet knows", () => {
  for (const line of read("deploy/systemd/gannet.env.example").split("\n")) {
    const m = /^#?\s*([A-Z][A-Z_]+)=/.exec(line);
    if (m) assertKnown(m[1], "deploy/systemd/gannet.env.example");
  }
});
