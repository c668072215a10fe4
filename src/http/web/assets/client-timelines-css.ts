/** The web client's timelines' part of the stylesheet. */
export const clientTimelinesCss = ``;
