import type { AppContext } from "../../context.ts";

/**
 * What federation does when a quote changes here (FEP-044f). The quotes service calls these after
 * its transaction commits; they only queue work and never wait for remote servers.
 */

/** A local post now quotes a post (row `quoteId` in `quotes`): a remote quoted post's author is asked with a QuoteRequest. */
export async function afterQuoteCreated(_ctx: AppContext, _quoteId: string): Promise<void> {}

/** The quoted post's local author revoked quote `quoteId`: the quoting server learns it (Delete of the stamp). */
export async function afterQuoteRevoked(_ctx: AppContext, _quoteId: string): Promise<void> {}
