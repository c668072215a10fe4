/** The public site's part of the stylesheet: banner, facts lists, moderated servers, the feed's posts. */
export const siteCss = `
.site-banner{display:block;width:100%;aspect-ratio:1200/630;object-fit:cover;border-radius:6px;margin:0 0 1rem;background:var(--bg)}
.site-lead{font-size:1.1rem}
.site-links,.site-apps{padding-left:1.2rem}.site-links li,.site-apps li{margin:.3rem 0}
.site-facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}.site-facts dt{font-weight:600}.site-facts dd{margin:0}
.site-rules li{margin:.4rem 0}
.site-domain-blocks code{word-break:break-all}
.site-severities dt{font-weight:600;margin-top:.5rem}.site-severities dd{margin:0 0 0 1rem}
.site-closed-message{border-left:4px solid var(--line);padding:.2rem .8rem;margin:.8rem 0}
.site-text{overflow-wrap:anywhere}
.site-feed{display:flex;flex-direction:column}
.site-post{border-top:1px solid var(--line);padding:.8rem 0}
.site-post header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.2rem 1rem}
.site-post-author{text-decoration:none;color:var(--fg)}.site-post-author:hover strong{text-decoration:underline}
.site-post-content{overflow-wrap:anywhere}
.site-post details summary{cursor:pointer;font-weight:600;margin:.4rem 0}
@media (max-width:40rem){.site-facts{grid-template-columns:1fr}.site-facts dd{margin-bottom:.4rem}}
`;
