/** The moderation panel's server pages' part of the stylesheet. */
export const adminServerCss = ``;
