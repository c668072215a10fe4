/**
 * The profiles area's part of the stylesheet: profile headers, tabs, status cards, media, polls,
 * content warnings and threads. No inline styles anywhere (the CSP forbids them).
 */
export const profilesCss = `
.profile-header{margin:-1.25rem -1.5rem 1rem;padding:0 1.5rem 1rem;border-bottom:1px solid var(--line)}
.header-image{display:block;width:calc(100% + 3rem);max-width:none;margin:0 -1.5rem;aspect-ratio:3/1;object-fit:cover;border-radius:8px 8px 0 0;background:var(--bg)}
.profile-id{display:flex;align-items:flex-end;gap:1rem;flex-wrap:wrap;padding-top:1rem}
.profile-id h1{margin:0;display:flex;flex-direction:column}
.profile-id .acct{font-size:1rem;font-weight:400;color:var(--muted);word-break:break-all}
.avatar{border-radius:8px;object-fit:cover;background:var(--bg);flex:none}
.avatar-large{width:96px;height:96px;border:3px solid var(--card)}
.header-image+.profile-id{margin-top:-3rem}
.account-notices{list-style:none;padding:.5rem .8rem;margin:1rem 0;border:1px solid var(--line);border-radius:6px;background:var(--bg)}
.note{margin:1rem 0;overflow-wrap:anywhere}
dl.fields{margin:1rem 0;border:1px solid var(--line);border-radius:6px}
dl.fields .field{display:grid;grid-template-columns:minmax(6rem,30%) 1fr;border-bottom:1px solid var(--line)}
dl.fields .field:last-child{border-bottom:0}
dl.fields dt{font-weight:600;padding:.4rem .6rem;background:var(--bg);overflow-wrap:anywhere}
dl.fields dd{margin:0;padding:.4rem .6rem;overflow-wrap:anywhere}
dl.fields .verified dd{background:var(--ok-bg)}
.verified-mark{color:var(--ok-line);font-weight:700}
ul.counts{list-style:none;padding:0;margin:1rem 0 0;display:flex;flex-wrap:wrap;gap:.3rem 1.2rem;font-weight:600}
.profile-actions{margin:0}
nav.tabs ul{list-style:none;margin:0 0 1rem;padding:0;display:flex;gap:.3rem;border-bottom:1px solid var(--line);overflow-x:auto}
nav.tabs a{display:block;padding:.5rem .9rem;text-decoration:none;border-bottom:3px solid transparent}
nav.tabs a[aria-current=page]{border-bottom-color:var(--accent);font-weight:700;color:var(--fg)}
.pinned h2{font-size:1rem;color:var(--muted);margin:.5rem 0}
article.status{border-bottom:1px solid var(--line);padding:1rem 0;overflow-wrap:anywhere}
.statuses article.status:last-child,.thread>article.status:last-child,.descendants article.status:last-child{border-bottom:0}
article.status.focal{font-size:1.1rem}
.status-prepend{margin:0 0 .4rem}
.status-head{display:flex;flex-wrap:wrap;align-items:flex-start;gap:.3rem .8rem}
.status-author{display:flex;gap:.6rem;align-items:center;text-decoration:none;color:var(--fg);margin-right:auto;min-width:0}
.status-author .avatar{width:46px;height:46px}
.status-names{display:flex;flex-direction:column;min-width:0}
.status-names .display-name{font-weight:700}
.status-names .acct{word-break:break-all}
.status-time{white-space:nowrap}
.status-content{margin:.6rem 0}
.status-content p{margin:0 0 .6rem}
.status-content .invisible{display:none}.status-content .ellipsis::after{content:"…"}
img.emoji{width:1.2em;height:1.2em;vertical-align:-.2em;object-fit:contain;margin:0 .05em}
details.cw,details.sensitive{margin:.6rem 0}
details.cw>summary,details.sensitive>summary{cursor:pointer;list-style:none}
details.cw>summary::-webkit-details-marker,details.sensitive>summary::-webkit-details-marker{display:none}
details.cw>summary .reveal,details.sensitive>summary .reveal{display:inline-block;margin-left:.4rem;padding:.1rem .6rem;border:1px solid var(--accent);border-radius:4px;color:var(--accent);font-size:.85rem}
details.sensitive>summary{padding:1.5rem;text-align:center;background:var(--bg);border:1px dashed var(--line);border-radius:6px}
details[open]>summary .reveal{opacity:.7}
ul.media{list-style:none;padding:0;margin:.6rem 0;display:grid;gap:.3rem;grid-template-columns:1fr 1fr}
ul.media-1{grid-template-columns:1fr}
ul.media li{margin:0}
ul.media img,ul.media video{display:block;width:100%;max-height:32rem;object-fit:cover;border-radius:6px;background:var(--bg)}
ul.media audio{width:100%}
.media-alt{font-size:.85rem;color:var(--muted);margin:.2rem 0 0}
.poll ul{list-style:none;padding:0;margin:.6rem 0}
.poll li{display:grid;grid-template-columns:1fr auto;gap:.1rem .6rem;margin:.4rem 0}
.poll meter{grid-column:1/-1;width:100%;height:.6rem}
.poll-pct{font-weight:700}
ul.status-actions{list-style:none;padding:0;margin:.4rem 0 0;display:flex;flex-wrap:wrap;gap:.3rem 1.4rem;font-size:.9rem}
ul.status-actions .count{color:var(--muted)}
.thread .ancestors article.status{font-size:.95rem}
.descendants{margin-top:.5rem}
.descendants h2{font-size:1rem;color:var(--muted)}
.empty{text-align:center;padding:2rem 0}
.embed article.status{border:0;padding:0}
@media (max-width:40rem){.profile-header{margin:-1rem -1rem 1rem;padding:0 1rem 1rem}.header-image{width:calc(100% + 2rem);margin:0 -1rem;border-radius:0}dl.fields .field{grid-template-columns:1fr}}
`;
