/** The web client's compose' part of the stylesheet. */
export const clientComposeCss = ``;
