/** The moderation panel's accounts pages' part of the stylesheet. */
export const adminAccountsCss = ``;
