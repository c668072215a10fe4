import type { Sharp, SharpOptions } from "sharp";

/**
 * sharp (libvips) is loaded on first use: it adds tens of MiB to a process that may never
 * process an image. Node caches the module, so later calls cost nothing.
 */
export async function sharpOf(input?: Buffer | Uint8Array | SharpOptions, options?: SharpOptions): Promise<Sharp> {
  const { default: sharp } = await import("sharp");
  return input === undefined ? sharp() : sharp(input as Buffer, options);
}
