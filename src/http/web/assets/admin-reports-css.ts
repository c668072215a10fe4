/** The moderation panel's reports pages' part of the stylesheet. */
export const adminReportsCss = `
.admin-reports-filter-link{text-decoration:none;color:var(--muted);margin-left:.2rem}
.admin-reports-scroll{overflow-x:auto}
.admin-reports-table td:first-child a{word-break:break-all}
.admin-reports-table time{white-space:nowrap}
.admin-reports-about{font-weight:600}
.admin-report-facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:1rem 0}
.admin-report-facts dt{color:var(--muted);font-weight:600}.admin-report-facts dd{margin:0}
.admin-report-facts .badge{margin-left:.3rem}
.admin-report-rules{margin:0;padding-left:1.1rem}
.admin-report-comment{margin:.5rem 0;padding:.6rem .9rem;border-left:3px solid var(--line);white-space:pre-wrap}
.admin-report-posts,.admin-report-notes,.admin-report-warnings{list-style:none;margin:0;padding:0}
.admin-report-post{border:1px solid var(--line);border-radius:6px;padding:.6rem .9rem;margin:.6rem 0}
.admin-report-post-meta{color:var(--muted);font-size:.85rem;margin:0 0 .4rem}
.admin-report-cw{margin:.2rem 0 .4rem;padding:.3rem .5rem;border:1px dashed #b7791f;border-radius:4px}
.admin-report-content p{margin:.3rem 0}
.admin-report-media-heading{font-weight:600;margin:.5rem 0 .2rem;font-size:.9rem}
.admin-report-media{margin:0;padding-left:1.1rem;font-size:.9rem}
.admin-report-note,.admin-report-warnings li{border-bottom:1px solid var(--line);padding:.5rem 0}
.admin-report-note-by{color:var(--muted);font-size:.85rem;margin:0}
.admin-report-note-text,.admin-report-warning-text{margin:.3rem 0;white-space:pre-wrap}
.admin-report-note form{margin:.2rem 0 0}
.admin-report-note-form textarea,.admin-report-act textarea{width:100%}
.admin-report-act fieldset{border:1px solid var(--line);border-radius:6px;padding:.5rem .9rem;margin:.6rem 0}
.admin-report-act-type{display:block;font-weight:normal;margin:.2rem 0}
.admin-report-history{margin:0;padding-left:1.2rem;font-size:.92rem}
.admin-report-history li{margin:.2rem 0}
`;
