// The activity builders the delivery job loads (with Fedify) only when it has recipients.
export { deleteActor, featuredChange, featuredTagChange, move, updateActor } from "./account.ts";
export { noteOf } from "./note.ts";
export { answerQuoteRequest, deleteStamp, quoteRequest } from "./quotes.ts";
export { answerFollow, block, flag, follow, instanceSender, like, undo } from "./relationships.ts";
export { announce, pollVote, statusActivity } from "./statuses.ts";
