/** The moderation panel's federation pages' part of the stylesheet. */
export const adminFederationCss = `
.admin-filters label.check{flex-direction:row;align-items:center;gap:.4rem}
dl.health{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:.5rem 0}
dl.health dt{color:var(--muted)}
dl.health dd{margin:0}
.block-effects{margin:1rem 0;padding-left:1.2rem}
.block-effects li{margin:.35rem 0}
.admin-table code,.test-result code{word-break:break-all;font-size:.85rem}
.admin-table td.admin-actions{margin:0}
.admin-table .badge{white-space:nowrap}
.admin-table.instances{font-size:.9rem}
.admin-table.instances th,.admin-table.instances td{padding:.4rem .3rem}
`;
