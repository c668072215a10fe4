/** The web client's pages' part of the stylesheet: notifications, threads, profiles, conversations, search. */
export const clientPagesCss = `
.client-tabs ul{list-style:none;display:flex;gap:.3rem;padding:0;margin:0 0 .6rem;border-bottom:1px solid var(--line)}
.client-tabs a{display:block;padding:.4rem .7rem;text-decoration:none;color:var(--muted);border-bottom:2px solid transparent}
.client-tabs a[aria-current=page]{color:var(--fg);border-bottom-color:var(--accent);font-weight:700}
.notifications-actions{margin:0 0 .5rem;text-align:right}
.notifications{list-style:none;padding:0;margin:0}
.notifications>li{border-bottom:1px solid var(--line);padding:.6rem .4rem}
.notifications>li.empty{color:var(--muted)}
.notification.unread{background:var(--bg);border-left:3px solid var(--accent)}
.notification-head{display:flex;gap:.4rem;align-items:baseline;margin:0 0 .3rem;flex-wrap:wrap}
.notification-head .time{margin-left:auto;font-size:.85rem;color:var(--muted)}
.notification-text a.name{font-weight:700;color:var(--fg);text-decoration:none}
.unread-mark{font-size:.75rem;padding:0 .35rem;border-radius:999px;background:var(--accent);color:var(--accent-fg)}
.notification-icon::before{content:"\\2022";color:var(--accent)}
.notification-favourite .notification-icon::before{content:"\\2605"}
.notification-reblog .notification-icon::before{content:"\\21BB"}
.notification-follow .notification-icon::before,.notification-follow_request .notification-icon::before{content:"+"}
.notification-mention .notification-icon::before{content:"@"}
.notification-moderation_warning .notification-icon::before,.notification-admin-report .notification-icon::before{content:"\\26A0"}
.notification-status .status{padding:.4rem 0 0}
.group-avatars{list-style:none;display:flex;flex-wrap:wrap;gap:.3rem;padding:0;margin:.3rem 0}
.group-avatars img{border-radius:6px;object-fit:cover;display:block}
.warning-text{border-left:3px solid var(--accent);margin:.4rem 0;padding:.2rem .6rem;white-space:pre-wrap}
.follow-request-actions{display:flex;gap:.4rem;margin:.4rem 0}
.thread>li.focus{background:var(--bg);border-left:3px solid var(--accent);padding-left:.3rem}
.thread>li.focus .content{font-size:1.1rem}
.thread>li.depth-2{margin-left:1rem}.thread>li.depth-3{margin-left:2rem}.thread>li.depth-4{margin-left:3rem}.thread>li.depth-5{margin-left:4rem}
.profile{margin:0 0 1rem}
.profile-banner{display:block;width:100%;aspect-ratio:3/1;object-fit:cover;border-radius:8px;background:var(--card);border:1px solid var(--line)}
.profile-banner.empty{aspect-ratio:auto;height:3.5rem}
.profile-head{display:flex;gap:.8rem;align-items:flex-end;margin-top:-2.5rem;padding:0 .6rem;flex-wrap:wrap}
.profile-head .avatar{border-radius:12px;border:3px solid var(--bg);object-fit:cover;background:var(--bg)}
.profile-names{flex:1;min-width:10rem}
.profile-names h2{margin:0;font-size:1.3rem}
.profile-names .acct{margin:0;color:var(--muted)}
.profile-names .flag{font-size:.8rem;border:1px solid var(--line);border-radius:4px;padding:0 .3rem}
.relationship{margin:.2rem 0}
.relationship-state{font-size:.8rem;border-radius:4px;padding:0 .35rem;background:var(--bg);border:1px solid var(--line)}
.profile-actions{display:flex;gap:.3rem;flex-wrap:wrap}
.profile .note{margin:.8rem .6rem;overflow-wrap:anywhere}
.profile .fields{margin:.5rem .6rem}
.profile .field{display:grid;grid-template-columns:10rem 1fr;gap:.5rem;border-bottom:1px solid var(--line);padding:.3rem 0}
.profile .field dt{font-weight:700;color:var(--muted);overflow-wrap:anywhere}
.profile .field dd{margin:0;overflow-wrap:anywhere}
.profile .field.verified dd{color:var(--good, var(--accent))}
.verified-mark{font-size:.75rem}
.profile-counts{list-style:none;display:flex;gap:1rem;padding:0 .6rem;margin:.5rem 0}
.pinned-heading{font-size:1rem;margin:.5rem 0 .2rem;color:var(--muted)}
.statuses.pinned{border-bottom:2px solid var(--line);margin-bottom:.5rem}
.accounts,.hashtags,.conversations{list-style:none;padding:0;margin:0}
.accounts>li,.hashtags>li,.conversations>li{border-bottom:1px solid var(--line);padding:.6rem .4rem}
.conversation.unread{background:var(--bg);border-left:3px solid var(--accent)}
.conversation .participants{margin:0 0 .3rem;font-size:.9rem}
.client-search{display:flex;gap:.4rem;flex-wrap:wrap;align-items:center;margin:0 0 1rem}
.client-search input{flex:1;min-width:12rem}
.search-results h2{font-size:1.05rem;margin:1rem 0 .4rem}
`;
