#!/usr/bin/env node
// The `gannet` command. It runs the TypeScript sources on the Node 24 that the project pins
// (node_modules/.bin/node), whatever Node started this script.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pinned = join(root, "node_modules", ".bin", "node");
const node = existsSync(pinned) ? pinned : process.execPath;
const result = spawnSync(node, [join(root, "src", "cli", "main.ts"), ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(result.status ?? 1);
