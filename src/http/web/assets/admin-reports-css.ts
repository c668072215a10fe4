/** The moderation panel's reports pages' part of the stylesheet. */
export const adminReportsCss = ``;
