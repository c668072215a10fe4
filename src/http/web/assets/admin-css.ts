/** The moderation panel's shared part of the stylesheet: tables, filters, badges, bar charts. */
export const adminCss = `
.admin .admin-heading{font-weight:700;margin:0 0 .5rem;color:var(--muted)}
.admin-table{width:100%;border-collapse:collapse;margin:1rem 0;font-size:.95rem}
.admin-table th,.admin-table td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
.admin-table th{font-weight:600;color:var(--muted)}
.admin-table td.num,.admin-table th.num{text-align:right;font-variant-numeric:tabular-nums}
.admin-filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin:1rem 0}
.admin-filters label{display:flex;flex-direction:column;gap:.2rem;margin:0}
.admin-filters button{margin:0}
.admin-actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.8rem 0}
.admin-actions form{margin:0}.admin-actions button{margin:0}
.badge{display:inline-block;padding:.05rem .45rem;border-radius:999px;font-size:.8rem;border:1px solid var(--line);background:var(--bg)}
.badge.warn{border-color:#b7791f;color:#8a5a12}.badge.bad{border-color:#c53030;color:#9b2c2c}.badge.good{border-color:#2f855a;color:#276749}
.admin-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.8rem;margin:1rem 0}
.admin-card{border:1px solid var(--line);border-radius:6px;padding:.7rem .9rem}
.admin-card .value{font-size:1.6rem;font-weight:700;font-variant-numeric:tabular-nums}
.admin-card .label{color:var(--muted);font-size:.9rem}
.bars{display:flex;align-items:flex-end;gap:2px;height:3rem}
.bars span{flex:1;background:var(--accent,#3b5bdb);min-height:1px;opacity:.75}
.admin-section{margin:1.5rem 0}
`;
