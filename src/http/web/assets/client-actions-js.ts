/**
 * `/assets/client-actions.js` (runs after client-compose.js, whose helpers it uses as
 * `Gannet.posts`): the actions on posts (favourite, boost, bookmark, poll votes, the "more" menu:
 * copy link, open, edit, delete, pin, mute, block, report), the account buttons
 * (`data-account-action`) and the report dialog. Everything goes through the API with
 * `Gannet.api` (docs/web-client-compose.md).
 */
export const clientActionsJs = String.raw`"use strict";
(function () {
  var G = window.Gannet;
  if (!G || !G.posts) return;
  var P = G.posts;
  var tx = P.tx;
  var fail = P.fail;
  var articles = P.articles;
  var path = P.path;
  var removeStatus = P.removeStatus;
  var removeAccountPosts = P.removeAccountPosts;
  var box = P.box;

  // ---- actions on posts ----
  var TOGGLES = {
    favourite: { on: "favourite", off: "unfavourite", count: "favourites_count", flag: "favourited", label: "client.favourite", undo: "client.unfavourite" },
    reblog: { on: "reblog", off: "unreblog", count: "reblogs_count", flag: "reblogged", label: "client.boost", undo: "client.unboost" },
    bookmark: { on: "bookmark", off: "unbookmark", count: null, flag: "bookmarked", label: "client.bookmark", undo: "client.unbookmark" },
  };
  function setToggle(id, action, on, n) {
    var t = TOGGLES[action];
    articles(id).forEach(function (a) {
      var b = a.querySelector(':scope > footer [data-action="' + action + '"]');
      if (!b) return;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      var label = tx(on ? t.undo : t.label);
      b.setAttribute("aria-label", label);
      b.title = label;
      var c = b.querySelector(".count");
      if (c && n !== null) c.textContent = n > 0 ? String(n) : "";
    });
  }
  function toggle(article, btn, action) {
    var t = TOGGLES[action];
    var id = article.dataset.id;
    if (btn.dataset.pending) return;
    var was = btn.getAttribute("aria-pressed") === "true";
    var c = btn.querySelector(".count");
    var before = t.count && c ? Number(c.textContent || "0") : null;
    setToggle(id, action, !was, before === null ? null : Math.max(0, before + (was ? -1 : 1)));
    btn.dataset.pending = "1";
    G.api("POST", path(id) + "/" + (was ? t.off : t.on))
      .then(
        function (s) {
          var target = s && s.reblog ? s.reblog : s;
          if (target && target.id === id) setToggle(id, action, !!target[t.flag], t.count ? target[t.count] : null);
        },
        function (err) {
          setToggle(id, action, was, before);
          fail(err);
        },
      )
      .then(function () { delete btn.dataset.pending; });
  }

  // The "more" menu of a post
  var menuOpen = null;
  function closeMenu(restore) {
    if (!menuOpen) return;
    var m = menuOpen;
    menuOpen = null;
    m.menu.remove();
    m.button.setAttribute("aria-expanded", "false");
    if (restore) m.button.focus();
  }
  function menuItems() { return menuOpen ? Array.prototype.slice.call(menuOpen.menu.querySelectorAll('[role="menuitem"]')) : []; }
  function copyLink(url) {
    if (!navigator.clipboard) return fail(new Error("clipboard"));
    navigator.clipboard.writeText(url).then(function () { G.announce(tx("client.compose.link_copied")); }, fail);
  }
  function accountPost(article, action, done) {
    G.api("POST", "/api/v1/accounts/" + encodeURIComponent(article.dataset.accountId) + "/" + action).then(function (r) {
      removeAccountPosts(article.dataset.accountId);
      G.emit("account:relationship", { relationship: r });
      G.announce(tx(done, { acct: "@" + article.dataset.acct }));
    }, fail);
  }
  function openMenu(article, button) {
    if (menuOpen && menuOpen.button === button) return closeMenu(true);
    closeMenu(false);
    var id = article.dataset.id;
    var acct = "@" + article.dataset.acct;
    var url = article.dataset.url;
    var menu = document.createElement("div");
    menu.className = "status-menu";
    menu.setAttribute("role", "menu");
    menu.id = "status-menu-" + id;
    menu.setAttribute("aria-label", tx("client.more"));
    function item(label, run, href) {
      var el = document.createElement(href ? "a" : "button");
      if (href) {
        el.href = href;
        el.target = "_blank";
        el.rel = "noopener";
      } else el.type = "button";
      el.setAttribute("role", "menuitem");
      el.tabIndex = -1;
      el.textContent = label;
      el.addEventListener("click", function () {
        closeMenu(!href);
        if (run) run();
      });
      menu.appendChild(el);
      return el;
    }
    item(tx("client.compose.copy_link"), function () { copyLink(url); });
    if (url) item(tx("client.compose.open_original"), null, url);
    if (article.hasAttribute("data-own")) {
      if (box) item(tx("client.compose.edit"), function () { box.edit(article); });
      if (article.dataset.visibility !== "direct") {
        var pin = item(tx("client.compose.pin"), function () {
          var pinned = pin.dataset.pinned === "1";
          G.api("POST", path(id) + (pinned ? "/unpin" : "/pin")).then(function () {
            G.announce(tx(pinned ? "client.compose.unpinned" : "client.compose.pinned"));
          }, fail);
        });
        G.api("GET", path(id)).then(function (s) {
          if (!s.pinned) return;
          pin.dataset.pinned = "1";
          pin.textContent = tx("client.compose.unpin");
        }, function () {});
      }
      item(tx("client.compose.delete"), function () {
        if (!window.confirm(tx("client.compose.delete_confirm"))) return;
        G.api("DELETE", path(id)).then(function () {
          removeStatus(id);
          G.emit("status:deleted", { id: id });
          G.announce(tx("client.compose.deleted"));
        }, fail);
      });
    } else {
      item(tx("client.compose.mute_account", { acct: acct }), function () { accountPost(article, "mute", "client.compose.muted"); });
      item(tx("client.compose.block_account", { acct: acct }), function () {
        if (window.confirm(tx("client.compose.block_confirm", { acct: acct }))) accountPost(article, "block", "client.compose.blocked");
      });
      item(tx("client.compose.report_account", { acct: acct }), function () {
        openReport({ accountId: article.dataset.accountId, acct: article.dataset.acct, statusIds: [id] });
      });
    }
    button.setAttribute("aria-haspopup", "menu");
    button.setAttribute("aria-expanded", "true");
    button.setAttribute("aria-controls", menu.id);
    button.insertAdjacentElement("afterend", menu);
    menuOpen = { menu: menu, button: button };
    menuItems()[0].focus();
    menu.addEventListener("keydown", function (e) {
      var items = menuItems();
      var i = items.indexOf(document.activeElement);
      if (e.key === "ArrowDown") items[(i + 1) % items.length].focus();
      else if (e.key === "ArrowUp") items[(i - 1 + items.length) % items.length].focus();
      else if (e.key === "Home") items[0].focus();
      else if (e.key === "End") items[items.length - 1].focus();
      else if (e.key === "Escape") closeMenu(true);
      else if (e.key === "Tab") return closeMenu(false);
      else return;
      e.preventDefault();
    });
  }

  // ---- account buttons (data-account-action) ----
  function accountState(kind, r) {
    if (kind === "follow" || kind === "unfollow") {
      if (r.following) return ["unfollow", "client.compose.unfollow"];
      if (r.requested) return ["unfollow", "client.compose.cancel_request"];
      return ["follow", "client.compose.follow"];
    }
    if (kind === "mute" || kind === "unmute") return r.muting ? ["unmute", "client.compose.unmute"] : ["mute", "client.compose.mute"];
    return r.blocking ? ["unblock", "client.compose.unblock"] : ["block", "client.compose.block"];
  }
  function accountAction(btn) {
    var kind = btn.dataset.accountAction;
    var id = btn.dataset.accountId;
    var acct = btn.dataset.acct || "";
    if (kind === "report") {
      var go = function (a) { openReport({ accountId: id, acct: a, statusIds: [] }); };
      if (acct) go(acct);
      else G.api("GET", "/api/v1/accounts/" + encodeURIComponent(id)).then(function (a) { go(a.acct); }, fail);
      return;
    }
    if (["follow", "unfollow", "mute", "unmute", "block", "unblock"].indexOf(kind) < 0 || btn.dataset.pending) return;
    if (kind === "block" && !window.confirm(tx("client.compose.block_confirm", { acct: acct ? "@" + acct : "" }))) return;
    btn.dataset.pending = "1";
    btn.setAttribute("aria-busy", "true");
    G.api("POST", "/api/v1/accounts/" + encodeURIComponent(id) + "/" + kind)
      .then(function (r) {
        document.querySelectorAll('[data-account-action][data-account-id="' + CSS.escape(id) + '"]').forEach(function (b) {
          var k = b.dataset.accountAction;
          if (k === "report") return;
          var same = (kind.replace(/^un/, "") === k.replace(/^un/, ""));
          if (!same) return;
          var next = accountState(k, r);
          b.dataset.accountAction = next[0];
          b.textContent = tx(next[1]);
        });
        G.emit("account:relationship", { relationship: r });
      }, fail)
      .then(function () {
        delete btn.dataset.pending;
        btn.removeAttribute("aria-busy");
      });
  }

  // ---- the report dialog ----
  var rulesLoad = null;
  function loadRules() {
    rulesLoad = rulesLoad || G.api("GET", "/api/v1/instance/rules").catch(function (e) { rulesLoad = null; throw e; });
    return rulesLoad;
  }
  function openReport(o) {
    var v = G.view;
    var at = o.acct.indexOf("@");
    var domain = at > 0 ? o.acct.slice(at + 1) : "";
    var dlg = document.createElement("dialog");
    dlg.className = "report-dialog";
    dlg.setAttribute("aria-labelledby", "report-title");
    var cats = ["spam", "legal", "violation", "other"].map(function (c) {
      return '<label><input type="radio" name="category" value="' + c + '"' + (c === "other" ? " checked" : "") + "> " + lbl(v, "client.compose.report_" + c) + "</label>";
    }).join("");
    var n = o.statusIds.length;
    dlg.innerHTML =
      '<form class="report-form" method="dialog"><h2 id="report-title">' + lbl(v, "client.compose.report_title", { acct: "@" + o.acct }) + "</h2>" +
      "<fieldset><legend>" + lbl(v, "client.compose.report_category") + "</legend>" + cats + "</fieldset>" +
      '<fieldset class="report-rules" hidden><legend>' + lbl(v, "client.compose.report_rules") + '</legend><div class="rules-list"></div></fieldset>' +
      (n ? '<p class="report-posts">' + lbl(v, "client.compose.report_posts." + (n === 1 ? "one" : "other"), { count: n }) + "</p>" : "") +
      '<label for="report-comment">' + lbl(v, "client.compose.report_comment") + '</label><textarea id="report-comment" name="comment" maxlength="1000"></textarea>' +
      (domain ? '<label><input type="checkbox" name="forward" value="1"> ' + lbl(v, "client.compose.report_forward", { domain: domain }) + "</label>" : "") +
      '<p class="compose-error" role="alert" hidden></p>' +
      '<div class="buttons"><button type="button" class="secondary" data-report="cancel">' + lbl(v, "client.compose.cancel") + '</button><button type="submit">' + lbl(v, "client.compose.report_send") + "</button></div></form>";
    document.body.appendChild(dlg);
    var form = dlg.querySelector("form");
    var rulesBox = dlg.querySelector(".report-rules");
    var err = dlg.querySelector(".compose-error");
    form.addEventListener("change", function (e) {
      if (e.target.name !== "category") return;
      rulesBox.hidden = e.target.value !== "violation";
      if (rulesBox.hidden || rulesBox.dataset.loaded) return;
      loadRules().then(function (rules) {
        rulesBox.dataset.loaded = "1";
        rulesBox.querySelector(".rules-list").innerHTML = (rules || []).map(function (r) {
          return '<label><input type="checkbox" name="rule_ids" value="' + esc(r.id) + '"> ' + esc(r.text) + "</label>";
        }).join("");
      }, fail);
    });
    dlg.querySelector('[data-report="cancel"]').addEventListener("click", function () { dlg.close(); });
    dlg.addEventListener("close", function () { dlg.remove(); });
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var fd = new FormData(form);
      var category = String(fd.get("category") || "other");
      var body = {
        account_id: o.accountId,
        status_ids: o.statusIds,
        comment: String(fd.get("comment") || ""),
        forward: fd.get("forward") === "1",
        category: category,
      };
      if (category === "violation") body.rule_ids = fd.getAll("rule_ids").map(String);
      var send = form.querySelector('button[type="submit"]');
      send.disabled = true;
      G.api("POST", "/api/v1/reports", body).then(
        function () {
          dlg.close();
          G.announce(tx("client.compose.report_sent"));
        },
        function (e2) {
          send.disabled = false;
          err.textContent = tx("client.compose.action_failed", { error: e2.message });
          err.hidden = false;
        },
      );
    });
    dlg.showModal();
  }

  // ---- delegation ----
  document.addEventListener("click", function (e) {
    var target = e.target;
    if (!(target instanceof Element)) return;
    if (menuOpen && !menuOpen.menu.contains(target) && !menuOpen.button.contains(target)) closeMenu(false);
    var btn = target.closest("[data-action]");
    var article = btn && btn.closest("article.status");
    if (btn && article && !btn.disabled) {
      var action = btn.dataset.action;
      if (TOGGLES[action]) toggle(article, btn, action);
      else if (action === "reply" && box) box.reply(article);
      else if (action === "quote" && box) box.quote(article);
      else if (action === "more") openMenu(article, btn);
      else return;
      e.preventDefault();
      return;
    }
    var acc = target.closest("[data-account-action][data-account-id]");
    if (acc && !acc.disabled) {
      e.preventDefault();
      accountAction(acc);
    }
  });
  document.addEventListener("submit", function (e) {
    var f = e.target;
    if (!(f instanceof HTMLFormElement) || !f.matches("form.poll[data-poll-id]")) return;
    e.preventDefault();
    var choices = Array.prototype.map.call(f.querySelectorAll('input[name="choices"]:checked'), function (i) { return i.value; });
    if (choices.length === 0) return;
    var article = f.closest("article.status");
    var button = f.querySelector('button[type="submit"]');
    if (button) button.disabled = true;
    G.api("POST", "/api/v1/polls/" + encodeURIComponent(f.dataset.pollId) + "/votes", { choices: choices }).then(
      function (poll) {
        f.outerHTML = pollBlock({ poll: poll, account: { id: article ? article.dataset.accountId : "" } }, G.view);
        G.announce(tx("client.compose.voted"));
      },
      function (err) {
        if (button) button.disabled = false;
        fail(err);
      },
    );
  });
  G.on("status:deleted", function (detail) { if (detail && detail.id) removeStatus(detail.id); });
})();
`;
