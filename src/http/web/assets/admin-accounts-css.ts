/** The moderation panel's accounts pages' part of the stylesheet. */
export const adminAccountsCss = `
.accounts-table td:first-child a{font-weight:600}
.account-badges{display:inline-flex;flex-wrap:wrap;gap:.25rem}
.admin-account-header{display:flex;gap:1rem;align-items:center;margin:.5rem 0 1rem}
.admin-account-header .avatar{width:64px;height:64px;border-radius:8px;object-fit:cover;flex:none}
.admin-account-header h1{margin:0 0 .2rem}
.admin-account-header p{margin:0 0 .3rem}
.admin .note{border-left:3px solid var(--line);padding:.1rem .8rem;margin:0 0 1rem}
.account-details th{width:12rem;white-space:nowrap}
.account-ips{list-style:none;margin:0;padding:0}
.account-action{display:grid;gap:.4rem;max-width:36rem}
.account-action textarea{width:100%}
.account-action button{justify-self:start}
.pending-signup,.delete-data{border:1px solid var(--line);border-radius:6px;padding:.2rem 1rem .8rem}
.delete-data{border-color:var(--error-line)}
.account-history ul{list-style:none;margin:0 0 1rem;padding:0}
.account-history li{padding:.45rem 0;border-bottom:1px solid var(--line)}
.account-history blockquote{margin:.3rem 0 0;padding:.1rem .7rem;border-left:3px solid var(--line);white-space:pre-wrap}
`;
