import type { Hono } from "hono";
import type { HonoEnv } from "../../types.ts";
import { aboutPage } from "./about.ts";
import { siteFileRoutes } from "./files.ts";
import { homePage } from "./home.ts";
import { privacyPolicyPage, termsPage } from "./legal.ts";
import { liveFeedRoute } from "./timeline.ts";

/** The public site: the home and about pages, privacy policy, terms of service, the local timeline page. */
export function siteRoutes(app: Hono<HonoEnv>): void {
  app.get("/", homePage);
  app.get("/about", aboutPage);
  // Mastodon 3's addresses of the same pages.
  app.get("/about/more", (c) => c.redirect("/about", 301));
  app.get("/terms", (c) => c.redirect("/privacy-policy", 301));
  app.get("/privacy-policy", privacyPolicyPage);
  app.get("/terms-of-service", (c) => termsPage(c));
  app.get("/terms-of-service/:date", (c) => termsPage(c, c.req.param("date")));
  app.get("/public/local", (c) => liveFeedRoute(c, "local"));
  app.get("/public", (c) => liveFeedRoute(c, "all"));
  siteFileRoutes(app);
}
