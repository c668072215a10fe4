/**
 * Security keys on the sign-in's second step and the security-keys settings page. Each form
 * carries `data-options` (where to fetch the WebAuthn options as JSON) and a hidden `credential`
 * field: the script asks the browser for a credential (through @simplewebauthn/browser, served
 * as simplewebauthn-browser.js), puts its JSON in the field and submits the form, so the server
 * answers as it does any form (CSRF-checked, redirects allowed by the page's form-action).
 * Without scripts or WebAuthn the key parts stay hidden or disabled; codes still work.
 */
export const webauthnJs = `(function () {
  "use strict";
  var W = window.SimpleWebAuthnBrowser;
  function setup(form, register) {
    if (!W || !W.browserSupportsWebAuthn()) return;
    var button = form.querySelector(".webauthn-start");
    var error = form.querySelector(".webauthn-error");
    var section = document.getElementById("security-key-sign-in");
    if (section) section.hidden = false;
    button.disabled = false;
    async function run(event) {
      if (event) event.preventDefault();
      error.hidden = true;
      button.disabled = true;
      try {
        var r = await fetch(form.dataset.options, { credentials: "same-origin", headers: { Accept: "application/json" } });
        if (!r.ok) throw new Error("options " + r.status);
        var options = await r.json();
        var result = register
          ? await W.startRegistration({ optionsJSON: options })
          : await W.startAuthentication({ optionsJSON: options });
        form.elements.namedItem("credential").value = JSON.stringify(result);
        form.submit();
      } catch (e) {
        error.hidden = false;
        button.disabled = false;
        button.focus();
      }
    }
    if (register) form.addEventListener("submit", run);
    else button.addEventListener("click", run);
  }
  var registerForm = document.getElementById("webauthn-register");
  if (registerForm) setup(registerForm, true);
  var signInForm = document.getElementById("webauthn-sign-in");
  if (signInForm) setup(signInForm, false);
})();
`;
