/** The moderation panel's dashboard pages' part of the stylesheet. */
export const adminDashboardCss = ``;
