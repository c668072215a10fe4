/** The web client's shared part of the stylesheet: the three columns, posts, actions. */
export const clientCss = `
[hidden]{display:none!important}
main.bare:has(.client){max-width:none;padding:0}
.client{display:grid;grid-template-columns:13rem minmax(0,40rem) 20rem;gap:1rem;max-width:76rem;margin:0 auto;padding:1rem;align-items:start}
@media (max-width:64rem){.client{grid-template-columns:11rem minmax(0,1fr)}.client-side{grid-column:1/-1;order:-1}}
@media (max-width:40rem){.client{grid-template-columns:1fr}.client-nav ul{display:flex;flex-wrap:wrap;gap:.3rem .8rem}}
.client-nav{position:sticky;top:1rem}
.client-nav ul{list-style:none;padding:0;margin:0}
.client-nav li{margin:.15rem 0}
.client-nav a{display:block;padding:.35rem .5rem;border-radius:6px;text-decoration:none;color:var(--fg)}
.client-nav a[aria-current=page]{background:var(--card);font-weight:700}
.client-nav .unread{display:inline-block;min-width:1.2rem;padding:0 .3rem;border-radius:999px;background:var(--accent);color:var(--bg);font-size:.8rem;text-align:center}
.client-main h1{font-size:1.3rem;margin:0 0 .8rem}
.client-side{position:sticky;top:1rem}
.statuses{list-style:none;padding:0;margin:0}
.statuses>li{border-bottom:1px solid var(--line)}
.statuses>li.empty{padding:1rem;color:var(--muted)}
.status{padding:.8rem .4rem}
.status:focus{outline:2px solid var(--focus)}
.status header{display:flex;justify-content:space-between;gap:.5rem;align-items:flex-start}
.status .meta{font-size:.85rem;color:var(--muted);white-space:nowrap}
.status .time{color:var(--muted)}
.account-line{display:flex;gap:.6rem;align-items:center;text-decoration:none;color:var(--fg);min-width:0}
.account-line .avatar{border-radius:8px;flex-shrink:0;object-fit:cover}
.account-line .names{display:flex;flex-direction:column;min-width:0}
.account-line .display-name{font-weight:700;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.account-line .acct{color:var(--muted);font-size:.9rem;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.status .content{margin:.5rem 0;overflow-wrap:anywhere}
.status .content p{margin:.4rem 0}
.boosted-by{margin:0 0 .3rem;font-size:.85rem;color:var(--muted)}
.boosted-by a{color:var(--muted)}
img.emoji{width:1.2em;height:1.2em;vertical-align:middle;object-fit:contain}
details.cw>summary,details.sensitive>summary,details.filtered>summary{cursor:pointer;padding:.3rem 0}
details.cw .reveal,details.sensitive .reveal,details.filtered .reveal{border:1px solid var(--line);border-radius:4px;padding:0 .4rem;font-size:.85rem}
details.filtered{padding:.6rem .4rem;color:var(--muted)}
.status .media{list-style:none;padding:0;display:grid;grid-template-columns:repeat(2,1fr);gap:4px;margin:.5rem 0}
.status .media-1{grid-template-columns:1fr}
.status .media img,.status .media video{width:100%;height:auto;max-height:24rem;object-fit:cover;border-radius:6px;display:block}
.status details.alt summary{font-size:.75rem;font-weight:700;cursor:pointer}
.status details.alt p{margin:.2rem 0;font-size:.9rem}
.poll ul{list-style:none;padding:0;margin:.5rem 0}
.poll li{margin:.3rem 0}
.poll.results progress{display:block;width:100%;height:.4rem}
.poll li.own{font-weight:700}
.poll .pct{display:inline-block;min-width:3rem;font-variant-numeric:tabular-nums}
.poll-footer{font-size:.85rem;color:var(--muted)}
.quote{border:1px solid var(--line);border-radius:6px;padding:.5rem;margin:.5rem 0}
.status-actions{display:flex;gap:.4rem;justify-content:space-between;max-width:26rem}
.status-actions .action{background:none;border:1px solid transparent;color:var(--muted);padding:.25rem .45rem;margin:0;border-radius:6px;cursor:pointer;display:inline-flex;gap:.3rem;align-items:center}
.status-actions .action:hover{border-color:var(--line)}
.status-actions .action[aria-pressed=true]{color:var(--accent);font-weight:700}
.status-actions .action[disabled]{opacity:.4;cursor:default}
.action .icon::before{font-size:1rem}
.action-reply .icon::before{content:"\\21A9"}
.action-reblog .icon::before{content:"\\21BB"}
.action-favourite .icon::before{content:"\\2606"}
.action-favourite[aria-pressed=true] .icon::before{content:"\\2605"}
.action-bookmark .icon::before{content:"\\2610"}
.action-bookmark[aria-pressed=true] .icon::before{content:"\\2611"}
.action-quote .icon::before{content:"\\275D"}
.action-more .icon::before{content:"\\22EF"}
.load-more{display:block;width:100%;margin:1rem 0}
.new-items{display:block;width:100%;margin:0 0 .5rem}
.client-live{position:fixed;bottom:1rem;left:50%;transform:translateX(-50%);background:var(--fg);color:var(--bg);padding:.5rem 1rem;border-radius:6px;opacity:0;pointer-events:none;transition:opacity .2s}
.client-live.shown{opacity:.92}
`;
