/** The `auth` area's part of the stylesheet: the sign-up form's rules, the account page's sections. */
export const authCss = `
ol.rules{padding-left:1.4rem;margin:.4rem 0 .8rem}ol.rules li{margin:.3rem 0}ol.rules .hint{display:block}
fieldset.rules label.check{margin-top:.6rem}
.closed-message{margin:1rem 0}
section.account+section.account{border-top:1px solid var(--line);margin-top:1.5rem;padding-top:.5rem}
`;
