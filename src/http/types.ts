import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppContext } from "../context.ts";
import type { Auth } from "../services/oauth/bearer.ts";

/** What a valid bearer token resolved to (defined with the service that resolves it). */
export type { Auth };

export interface HonoEnv {
  /**
   * Handed in with every request by the server (see `server.ts`): the context, and node-server's
   * request and response objects (used for the client address).
   */
  Bindings: {
    ctx: AppContext;
    incoming?: IncomingMessage;
    outgoing?: ServerResponse;
  };
  Variables: {
    /** Resolved once per request by the auth middleware; null when no token was sent. */
    auth: Auth | null;
    /** Whether a token was sent but is not valid (answered 401 where a token is checked). */
    badToken: boolean;
    /** Set by `clientIpOf` on first use. */
    clientIp?: string;
    /** Merged query and body parameters, parsed once (see params.ts). */
    params?: Record<string, unknown>;
    /**
     * The CSRF token of the request's browser session, once one was read or started (web/session.ts);
     * pages carry it in `<meta name="csrf-token">` for their scripts, as Mastodon's layout does.
     * Null once the session was ended.
     */
    sessionCsrf?: string | null;
    /** The browser session, once a page read it (web/session.ts `loadSession`). */
    webSession?: import("./web/session.ts").WebSession;
    /** The page locale, once negotiated (web/i18n). */
    locale?: string;
  };
}
