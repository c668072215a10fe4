/** The moderation panel's federation pages' part of the stylesheet. */
export const adminFederationCss = ``;
