/** The web client's pages' part of the stylesheet. */
export const clientPagesCss = ``;
