/**
 * The base of the one stylesheet: layout, typography, forms, buttons, notices. Areas add their
 * own parts (assets/*-css.ts, listed in assets.ts); everything is served as `/assets/gannet.css`.
 * Colours meet WCAG 2.2 AA contrast (4.5:1 for text) in both schemes; focus is always visible.
 */
export const baseCss = `
:root{--bg:#f3f3f7;--fg:#1b1b22;--muted:#4d4d5c;--card:#fff;--line:#c9c9d6;--accent:#4141b8;--accent-fg:#fff;--error-bg:#fde8e8;--error-line:#b32d2d;--ok-bg:#e6f4ea;--ok-line:#2d7a45;--focus:#d9400b}
@media (prefers-color-scheme:dark){:root{--bg:#15151c;--fg:#ececf3;--muted:#b3b3c4;--card:#1f1f29;--line:#4a4a5c;--accent:#a9a9ff;--accent-fg:#15151c;--error-bg:#3b1c1c;--error-line:#ff8c8c;--ok-bg:#183222;--ok-line:#7fd69b;--focus:#ffb37a}}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg);margin:0;line-height:1.5;font-size:1rem}
a{color:var(--accent)}a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:10}.skip:focus{left:1rem}
header.site,footer.site{padding:.6rem 1rem}
header.site nav{max-width:60rem;margin:0 auto;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1rem}
header.site .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg);margin-right:auto}
header.site ul,footer.site ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center}
header.site form{margin:0}
footer.site{color:var(--muted);font-size:.9rem;text-align:center;padding:2rem 1rem}footer.site ul{justify-content:center}
main{margin:0 auto 1rem;background:var(--card);border-radius:8px;padding:1.25rem 1.5rem;box-shadow:0 1px 3px #0003}
main.narrow{max-width:30rem}main.wide{max-width:60rem}main.bare{max-width:none;margin:0;border-radius:0;box-shadow:none;padding:.8rem}
@media (max-width:40rem){main{border-radius:0;padding:1rem}}
h1{font-size:1.45rem;margin-top:0;line-height:1.25}h2{font-size:1.2rem}h3{font-size:1.05rem}
label{display:block;margin:.9rem 0 .25rem;font-weight:600}
.hint{color:var(--muted);font-size:.9rem;margin:.2rem 0 0}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=search],input[type=number],input[type=file],input[type=date],select,textarea{width:100%;padding:.5rem;font:inherit;color:inherit;background:var(--card);border:1px solid var(--muted);border-radius:4px}
textarea{min-height:6rem;resize:vertical}
input[type=checkbox],input[type=radio]{width:1.1rem;height:1.1rem;vertical-align:-.15rem;margin-right:.4rem}
label.check{font-weight:400;display:flex;align-items:flex-start;gap:.2rem}
fieldset{border:1px solid var(--line);border-radius:6px;margin:1rem 0;padding:.5rem 1rem 1rem}legend{font-weight:600;padding:0 .3rem}
button,.button{display:inline-block;font:inherit;padding:.55rem 1.2rem;border-radius:4px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;margin-top:1rem;text-decoration:none}
button.secondary,.button.secondary{background:transparent;color:var(--accent)}
button.danger{background:var(--error-line);border-color:var(--error-line);color:#fff}
button.link{background:none;border:none;color:var(--accent);padding:0;margin:0;text-decoration:underline;cursor:pointer}
.actions{display:flex;gap:.8rem;flex-wrap:wrap;align-items:center}.actions form{margin:0}
.error{background:var(--error-bg);border:1px solid var(--error-line);padding:.6rem .8rem;border-radius:4px}
.notice{background:var(--ok-bg);border:1px solid var(--ok-line);padding:.6rem .8rem;border-radius:4px}
.field-error{color:var(--error-line);font-size:.9rem;margin:.2rem 0 0;font-weight:600}
code.code{display:block;font-size:1.1rem;padding:.8rem;background:var(--bg);border-radius:4px;word-break:break-all;user-select:all}
.muted{color:var(--muted);font-size:.9rem}ul.scopes{padding-left:1.2rem}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
img{max-width:100%;height:auto}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
nav.pagination{display:flex;justify-content:space-between;margin-top:1.5rem}
.settings{display:grid;grid-template-columns:13rem 1fr;gap:1.5rem}
.settings nav ul{list-style:none;padding:0;margin:0}.settings nav li a{display:block;padding:.35rem .5rem;border-radius:4px;text-decoration:none}
.settings nav li a[aria-current=page]{background:var(--accent);color:var(--accent-fg)}
@media (max-width:48rem){.settings{grid-template-columns:1fr}}
`;
