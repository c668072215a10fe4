// The value types of the settings table (settings.ts): what each takes, in words and as a parser.

/** A setting with a bad value: start-up stops with this one line. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export type Env = Record<string, string | undefined>;

export const GROUPS = [
  "Server",
  "Database",
  "Accounts",
  "Site",
  "Federation",
  "Discovery",
  "Media",
  "Mail",
  "Push",
  "Logging",
  "Development",
] as const;
export type Group = (typeof GROUPS)[number];

/** What values a setting takes: words for the docs, and the parser (given a trimmed, non-blank value). */
export interface SettingType<T> {
  doc: string;
  parse(value: string, name: string): T;
}

export interface Setting<T> {
  group: Group;
  type: SettingType<T>;
  /** The value when the variable is unset or blank. */
  default?: NoInfer<T>;
  /** The default in words, when it depends on other settings or is made at start. */
  defaultDoc?: string;
  /** One or two sentences for the operator. */
  description: string;
  /** Never printed (`gannet doctor` and logs show it as set or unset only). */
  secret?: boolean;
  /** Read where it is used rather than by `loadConfig` (then not part of `Config`). */
  readBy?: string;
}

// ---- types ----

export const text: SettingType<string> = { doc: "text", parse: (v) => v };

export const bool: SettingType<boolean> = {
  doc: "`true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`)",
  parse(v, name) {
    const l = v.toLowerCase();
    if (["true", "1", "yes", "on"].includes(l)) return true;
    if (["false", "0", "no", "off"].includes(l)) return false;
    throw new ConfigError(`${name} must be true or false, got "${v}"`);
  },
};

export function int(min: number, max: number): SettingType<number> {
  return {
    doc: `whole number, ${min} to ${max}`,
    parse(v, name) {
      if (!/^\d+$/.test(v)) throw new ConfigError(`${name} must be a whole number, got "${v}"`);
      const n = Number(v);
      if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
      return n;
    },
  };
}

export function oneOf<const T extends string>(values: readonly T[]): SettingType<T> {
  return {
    doc: `one of ${values.map((v) => `\`${v}\``).join(", ")}`,
    parse(v, name) {
      if (!(values as readonly string[]).includes(v)) {
        throw new ConfigError(`${name} must be one of ${values.join(", ")}, got "${v}"`);
      }
      return v as T;
    },
  };
}

const DOMAIN_RE =
  /^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?)*(:\d{1,5})?$/i;

export const domain: SettingType<string> = {
  doc: "host name, with a port if not the default one",
  parse(v, name) {
    if (!DOMAIN_RE.test(v)) throw new ConfigError(`${name} must be a host name such as example.com, got "${v}"`);
    return v.toLowerCase();
  },
};

export const locale: SettingType<string> = {
  doc: "language code (ISO 639-1, such as `en` or `pt-BR`)",
  parse(v, name) {
    if (!/^[a-z]{2,3}([-_][A-Za-z0-9]{2,8})?$/.test(v))
      throw new ConfigError(`${name} must be a language code such as en, got "${v}"`);
    return v;
  },
};

export function url(scheme: RegExp, doc: string): SettingType<string> {
  return {
    doc,
    parse(v, name) {
      if (!scheme.test(v) || !URL.canParse(v))
        throw new ConfigError(`${name} must be a URL starting with ${scheme.source.replace(/\\/g, "")}, got "${v}"`);
      return v.replace(/\/+$/, "");
    },
  };
}

/** A URL whose scheme must match; the message says what to do instead. */
export function prefixed(scheme: RegExp, doc: string, message: string): SettingType<string> {
  return {
    doc,
    parse(v, name) {
      if (!scheme.test(v)) throw new ConfigError(`${name} ${message}`);
      return v;
    },
  };
}

export function list(doc: string, check?: (entry: string, name: string) => void): SettingType<string[]> {
  return {
    doc,
    parse(v, name) {
      const entries = v.split(/[,\s]+/).filter(Boolean);
      if (check) for (const e of entries) check(e, name);
      return entries;
    },
  };
}

export const bindAddress: SettingType<string> = {
  doc: "IP address (`0.0.0.0` or `::` for every interface)",
  parse(v, name) {
    if (!/^[0-9a-fA-F:.]+$|^localhost$/.test(v)) throw new ConfigError(`${name} must be an IP address, got "${v}"`);
    return v;
  },
};

export const secretKey: SettingType<string> = {
  doc: "text of at least 32 characters",
  parse(v, name) {
    if (v.length < 32) throw new ConfigError(`${name} must be at least 32 characters long`);
    return v;
  },
};

export const ROLE_NAMES = ["web", "streaming", "worker", "scheduler"] as const;

/** The role names as given (`all` alone, or a list); whether they may be split is checked in loadConfig. */
export const roleList: SettingType<string[]> = {
  doc: `\`all\`, or a comma-separated list of ${ROLE_NAMES.map((r) => `\`${r}\``).join(", ")}`,
  parse(v, name) {
    const names = v
      .toLowerCase()
      .split(/[,\s]+/)
      .filter(Boolean);
    if (names.length === 1 && names[0] === "all") return names;
    for (const n of names) {
      if (!(ROLE_NAMES as readonly string[]).includes(n)) {
        throw new ConfigError(`${name} must be "all" or a list of ${ROLE_NAMES.join(", ")}, got "${v}"`);
      }
    }
    return names;
  },
};

export const LOG_LEVELS = ["debug", "info", "warning", "error"] as const;
