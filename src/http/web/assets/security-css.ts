/** Styles of the security pages: QR code, recovery codes, sessions table. */
export const securityCss = `
figure.qr{margin:.8rem 0;padding:.5rem;background:#fff;display:inline-block;border-radius:4px;border:1px solid var(--line)}
figure.qr img{display:block;width:220px;height:220px}
ol.steps li{margin-bottom:.8rem}
ol.recovery-codes{columns:2;font-size:1.1rem;padding-left:2rem}ol.recovery-codes code{user-select:all}
@media (max-width:30rem){ol.recovery-codes{columns:1}}
.badge{display:inline-block;font-size:.8rem;padding:0 .4rem;border-radius:3px;background:var(--ok-bg);border:1px solid var(--ok-line)}
section.security-key{margin-bottom:1.2rem;padding-bottom:.8rem;border-bottom:1px solid var(--line)}
td form{margin:0}td form button{margin-top:0}
`;
