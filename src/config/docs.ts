import { GROUPS, SETTINGS, type Setting, type SettingName } from "./settings.ts";

/**
 * docs/configuration.md, written from the settings table (`npm run docs:config`); a test fails
 * when the file and the table differ.
 */

function defaultText(s: Setting<unknown>): string {
  if (s.defaultDoc !== undefined) return s.defaultDoc;
  const d = s.default;
  if (d === undefined) return "unset";
  if (Array.isArray(d)) return d.length === 0 ? "none" : `\`${d.join(",")}\``;
  if (d === "") return "empty";
  return `\`${String(d)}\``;
}

/** Table cells may hold no pipe or line break. */
const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function configurationMarkdown(): string {
  const out = [
    "# Configuration",
    "",
    "<!-- Generated from src/config/settings.ts by `npm run docs:config`; edit the table there, not this file. -->",
    "",
    "Gannet reads its settings from environment variables, and from a `.env` file in its working",
    "directory (`KEY=value` lines; a variable set in the environment wins over the file). The `gannet`",
    "command reads them the same way. A blank value counts as unset. A bad value stops the server at",
    "start with one line naming the setting (exit status 2).",
    "",
    "Settings marked *secret* hold passwords or keys: keep them out of shared files and logs.",
    "",
  ];
  const names = Object.keys(SETTINGS) as SettingName[];
  for (const group of GROUPS) {
    const inGroup = names.filter((n) => SETTINGS[n].group === group);
    if (inGroup.length === 0) continue;
    out.push(`## ${group}`, "", "| Setting | Values | Default | What it does |", "| --- | --- | --- | --- |");
    for (const name of inGroup) {
      const s: Setting<unknown> = SETTINGS[name];
      const notes = [s.description, s.secret ? "*Secret.*" : "", s.readBy ? `(Read by \`${s.readBy}\`.)` : ""];
      out.push(
        `| \`${name}\` | ${cell(s.type.doc)} | ${cell(defaultText(s))} | ${cell(notes.filter(Boolean).join(" "))} |`,
      );
    }
    out.push("");
  }
  return out.join("\n");
}

export const CONFIGURATION_DOC = new URL("../../docs/configuration.md", import.meta.url);

/** Writes docs/configuration.md. */
export async function writeConfigurationDoc(): Promise<void> {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  mkdirSync(new URL(".", CONFIGURATION_DOC), { recursive: true });
  writeFileSync(CONFIGURATION_DOC, configurationMarkdown());
}

if (import.meta.main) await writeConfigurationDoc();
