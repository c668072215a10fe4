/** The moderation panel's server pages' part of the stylesheet. */
export const adminServerCss = `
.admin-thumbnail{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
.admin-emoji{width:2rem;height:2rem;object-fit:contain}
.admin-emoji-category{display:flex;flex-wrap:wrap;gap:.3rem .6rem;align-items:center;margin:0}
.admin-emoji-category input[type=text]{width:9rem;margin:0}
.admin-emoji-category button,.admin-emoji-category label{margin:0}
.admin-rules{padding-left:1.5rem}
.admin-rules li{margin:0 0 1rem}
.admin-rules p{margin:0}
.admin-tabs{display:flex;gap:1rem;list-style:none;padding:0;margin:.5rem 0 1rem}
.admin-tabs a[aria-current=page]{font-weight:700;text-decoration:none}
.admin fieldset{border:1px solid var(--line);border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
`;
