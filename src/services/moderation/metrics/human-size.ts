const UNITS = ["Bytes", "KB", "MB", "GB", "TB", "PB", "EB"];

/** A byte count as Rails' number_to_human_size writes it: `0 Bytes`, `1 Byte`, `1.5 KB`, `123 MB`. */
export function humanSize(bytes: number): string {
  const n = Math.max(0, bytes);
  if (n < 1024) return `${Math.trunc(n)} ${Math.trunc(n) === 1 ? "Byte" : "Bytes"}`;
  let exponent = 0;
  while (exponent < UNITS.length - 1 && n >= 1024 ** (exponent + 1)) exponent++;
  const value = Number((n / 1024 ** exponent).toPrecision(3));
  return `${value} ${UNITS[exponent]}`;
}
