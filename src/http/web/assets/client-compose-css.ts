/** The web client's compose' part of the stylesheet: the compose box, the post menu, the report dialog. */
export const clientComposeCss = `
.compose [hidden],.report-dialog [hidden]{display:none}
.compose{display:flex;flex-direction:column;gap:.5rem}
.compose textarea{width:100%;box-sizing:border-box;resize:vertical;min-height:7rem}
.compose input:not([type=checkbox]):not([type=radio]):not([type=file]),.compose select{box-sizing:border-box;max-width:100%}
.compose p{margin:0}
.compose-cw input{width:100%}
.compose-context{font-size:.9rem;background:var(--card);padding:.3rem .5rem;border-radius:6px;display:flex;justify-content:space-between;gap:.5rem;align-items:center}
.compose-context button{margin:0}
.compose-tools{display:flex;flex-wrap:wrap;gap:.4rem}
.compose-tools button,.compose-tools .button{margin:0;padding:.35rem .7rem}
.compose-tools .button:focus-within{outline:2px solid var(--focus)}
.compose-tools button[aria-pressed=true]{background:var(--accent);color:var(--accent-fg)}
.compose-tools label.disabled{opacity:.4;pointer-events:none}
.compose-selects{display:grid;grid-template-columns:auto 1fr;gap:.3rem .5rem;align-items:center}
.compose-submit{display:flex;justify-content:space-between;align-items:center}
.compose-submit button{margin:0}
.compose-count{font-variant-numeric:tabular-nums;color:var(--muted)}
.compose-count.over{color:#c0392b;font-weight:700}
.compose-error{color:#c0392b}
.compose-media{list-style:none;padding:0;margin:0;display:flex;flex-direction:column;gap:.5rem}
.compose-media li{border:1px solid var(--line);border-radius:6px;padding:.4rem}
.compose-media .preview{position:relative;display:inline-block;max-width:100%;padding:0;margin:0;border:0;border-radius:0;background:none;cursor:crosshair}
.compose-media .preview img{display:block;max-width:100%;max-height:12rem;width:auto;height:auto}
.compose-media .focus-mark{position:absolute;width:1rem;height:1rem;margin:-.5rem 0 0 -.5rem;border:2px solid #fff;border-radius:50%;box-shadow:0 0 0 2px #000;pointer-events:none}
.compose-media textarea{width:100%;box-sizing:border-box;min-height:3rem}
.compose-media .media-state{font-size:.85rem;color:var(--muted)}
.compose-media .media-remove{margin:.3rem 0 0;padding:.2rem .6rem}
.compose-poll{border:1px solid var(--line);border-radius:6px}
.compose-poll ol{padding-left:1.5rem;margin:.3rem 0}
.compose-poll li{display:flex;gap:.3rem;margin:.25rem 0}
.compose-poll li input{flex:1}
.compose-poll li button,.compose-poll>button{margin:0;padding:.2rem .6rem}
@media (min-width:40rem){.client:has(.compose-page) .client-nav{grid-row:1/span 2}.client:has(.compose-page) .client-side{grid-column:2;grid-row:1;position:static}.client:has(.compose-page) .client-main{grid-column:2;grid-row:2}}
.status-menu{position:absolute;right:0;top:100%;z-index:10;background:var(--bg);border:1px solid var(--line);border-radius:6px;box-shadow:0 4px 16px rgba(0,0,0,.2);padding:.3rem 0;min-width:12rem}
.status-menu [role=menuitem]{display:block;width:100%;text-align:left;background:none;border:0;color:var(--fg);padding:.4rem .8rem;margin:0;border-radius:0;text-decoration:none;font:inherit;cursor:pointer;box-sizing:border-box}
.status-menu [role=menuitem]:hover,.status-menu [role=menuitem]:focus{background:var(--card);outline:none}
.status-actions{position:relative}
.report-dialog{max-width:32rem;width:90vw;border:1px solid var(--line);border-radius:8px;background:var(--bg);color:var(--fg)}
.report-dialog::backdrop{background:rgba(0,0,0,.4)}
.report-dialog fieldset{border:1px solid var(--line);border-radius:6px;margin:.5rem 0}
.report-dialog label{display:block;margin:.2rem 0}
.report-dialog textarea{width:100%;box-sizing:border-box;min-height:5rem}
.report-dialog .buttons{display:flex;gap:.5rem;justify-content:flex-end}
`;
