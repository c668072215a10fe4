/** The moderation panel's dashboard pages' part of the stylesheet: measure cards with their charts, attention cards, dimension tables, the job queue and the audit log. */
export const adminDashboardCss = `
.admin-cards.dash-measures,.admin-cards.dash-attention{list-style:none;padding:0}
.admin-card.measure{display:flex;flex-direction:column;gap:.2rem}
.admin-card.measure .previous{color:var(--muted);font-size:.8rem}
.dash-chart{display:block;width:100%;height:3rem;margin-top:.4rem}
.dash-chart rect.bar{fill:var(--accent,#3b5bdb);opacity:.8}
.dash-chart rect.zero{fill:var(--line,#ccc)}
.admin-card.attention a{display:block;text-decoration:none;color:inherit}
.admin-card.attention a:hover .label,.admin-card.attention a:focus .label{text-decoration:underline}
.admin-card.attention.warn{border-color:#b7791f}
.admin-card.attention .value,.admin-card.attention .label{display:block}
.dash-dimensions{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:0 1.2rem}
.dash-dimensions caption{text-align:left;font-weight:700;padding:.3rem 0}
#job-counts td.dead{color:#9b2c2c;font-weight:700}
#failing-jobs .job-error{max-width:28rem;overflow-wrap:anywhere;font-size:.85rem}
#failing-jobs pre{white-space:pre-wrap;font-size:.8rem;max-height:16rem;overflow:auto}
#action-logs .target-type{color:var(--muted);display:block}
#action-logs .what .badge{margin-right:.3rem}
.pager{justify-content:space-between}
`;
