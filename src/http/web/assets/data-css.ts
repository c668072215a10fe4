/** Styles of the import, export and moving pages (the data area). */
export const dataCss = `.data-scroll{overflow-x:auto}
.data-table{margin:.5rem 0 1rem}
.data-table th,.data-table td{text-align:left;padding:.45rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
.data-table thead th{font-size:.9rem;color:var(--muted)}
.data-pending{color:var(--muted);font-style:italic}
.data-facts{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:1rem 0}
.data-facts dt{font-weight:600}
.data-facts dd{margin:0}
.data-facts progress{width:min(16rem,100%);vertical-align:middle}
.data-list{list-style:none;padding:0;margin:.5rem 0 1rem}
.data-list li{display:flex;justify-content:space-between;align-items:center;gap:1rem;flex-wrap:wrap;padding:.4rem 0;border-bottom:1px solid var(--line)}
.data-list li form{margin:0}
.data-list li button{margin-top:0}
@media (max-width:40rem){.data-table th,.data-table td{padding:.35rem .25rem;font-size:.9rem}.data-facts{grid-template-columns:1fr}}
`;
