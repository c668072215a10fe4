/** The feeds area's part of the stylesheet: the remote interaction and authorize pages. */
export const feedsCss = `
.interaction-object{border:1px solid var(--line);border-radius:6px;padding:.6rem .9rem;margin:1rem 0;overflow-wrap:anywhere}
.interaction-object .interaction-who{margin:0 0 .4rem}.interaction-object .interaction-who .muted{display:block}
.interaction-object details summary{cursor:pointer}
.interaction-object img{max-width:100%;height:auto}
form.interaction-reply{margin-top:1.5rem;border-top:1px solid var(--line);padding-top:.5rem}
`;
