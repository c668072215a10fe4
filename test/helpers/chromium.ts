/**
 * Browser tests in Debian's Chromium (`apt-get install chromium`), driven by playwright-core: no
 * browser is downloaded. When Chromium is missing, the browser suites are skipped and say so.
 */
import { existsSync } from "node:fs";
import { type Browser, type BrowserContext, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why the browser tests cannot run here (undefined when they can). */
export function chromiumSkipReason(): string | undefined {
  if (process.env.GANNET_SKIP_BROWSER === "1") return "browser tests skipped: GANNET_SKIP_BROWSER=1";
  if (!existsSync(CHROMIUM_PATH)) {
    return `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`;
  }
  return undefined;
}

export interface LaunchedBrowser {
  browser: Browser;
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Starts headless Chromium (playwright gives it a fresh temporary profile), without its background network traffic (this
 * machine's network is closed beyond loopback), and opens one browser context.
 */
export async function launchChromium(): Promise<LaunchedBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
    ],
  });
  const context = await browser.newContext();
  return {
    browser,
    context,
    async close() {
      await context.close().catch(() => {});
      await browser.close().catch(() => {});
    },
  };
}
