/** The web client's timelines' part of the stylesheet. */
export const clientTimelinesCss = `
a.load-more{text-align:center;box-sizing:border-box}
.new-items{position:sticky;top:.5rem;z-index:2}
.new-items[hidden]{display:none}
.statuses>li.read-marker{border-bottom:none;display:flex;align-items:center;gap:.6rem;color:var(--accent);font-size:.85rem;font-weight:700;padding:.3rem 0}
.statuses>li.read-marker::before,.statuses>li.read-marker::after{content:"";flex:1;border-top:2px solid var(--accent)}
.timeline-keys,.timeline-end{color:var(--muted);font-size:.85rem;text-align:center}
.tag-actions{margin:0 0 .8rem}
.tag-actions button{margin-top:0}
.tag-follow[aria-pressed=true]{background:transparent;color:var(--accent)}
.client-lists{list-style:none;padding:0}
.client-lists>li{display:flex;justify-content:space-between;align-items:center;gap:.5rem;padding:.4rem 0;border-bottom:1px solid var(--line)}
.client-lists>li.empty{color:var(--muted)}
.client-lists .list-delete{margin:0;padding:.2rem .7rem;background:transparent;color:var(--error-line);border-color:var(--error-line)}
.list-create input[name=title]{width:100%;box-sizing:border-box}
`;
