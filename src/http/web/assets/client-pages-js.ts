import * as pages from "../client/render-pages.ts";
import { functionsSource } from "./client-render-js.ts";

/**
 * `/assets/client-pages.js` (runs after client-core.js): the notifications badge on every client
 * page (`GET /api/v1/markers`, `GET /api/v2/notifications/unread_count`, refreshed on each
 * notification from the `user:notification` stream), live notifications inserted at the top of
 * `/notifications`, "Mark all as read" and the read position saved when the page is left with its
 * top seen (`POST /api/v1/markers`), follow requests answered, conversations marked read when
 * opened, and "load more" for the pages' lists. The pages' renderer (client/render-pages.ts) is
 * defined inside the script's own scope.
 */
export const clientPagesJs = `"use strict";
(function () {
  var G = window.Gannet;
  if (!G) return;
${functionsSource(pages)}
  var v = G.view;
  var P = G.page || {};
  var badge = document.querySelector(".client-nav .unread");
  var list = document.getElementById("notifications");
  var lastRead = P.lastReadId || null;
  var newest = null;
  var topSeen = null;
  function text(key) { return (v.l && v.l[key]) || key; }
  function bump(id) { if (id && isNewerId(id, newest)) newest = id; }
  if (list) list.querySelectorAll("li.notification[data-id]").forEach(function (li) { bump(li.getAttribute("data-id")); });

  function setBadge(n) {
    if (!badge) return;
    if (n > 0) { badge.textContent = String(n); badge.hidden = false; }
    else { badge.textContent = ""; badge.hidden = true; }
  }
  var counting = false;
  var again = false;
  function refreshCount() {
    if (counting) { again = true; return; }
    counting = true;
    G.api("GET", "/api/v2/notifications/unread_count").then(function (r) {
      setBadge(r && typeof r.count === "number" ? r.count : 0);
    }, function () {}).then(function () {
      counting = false;
      if (again) { again = false; refreshCount(); }
    });
  }
  G.api("GET", "/api/v1/markers?timeline[]=notifications").then(function (m) {
    var id = m && m.notifications && m.notifications.last_read_id;
    if (id && isNewerId(id, lastRead)) lastRead = id;
  }, function () {}).then(refreshCount);

  function insertLive(n) {
    var key = n.group_key || ("ungrouped-" + n.id);
    var grouped = key.indexOf("ungrouped-") !== 0;
    var load = grouped
      ? G.api("GET", "/api/v2/notifications/" + encodeURIComponent(key)).then(null, function () { return null; })
      : Promise.resolve(null);
    load.then(function (res) {
      var data = res && res.notification_groups && res.notification_groups.length > 0 ? res : notificationAsGrouped(n);
      data.notification_groups.forEach(function (g) { if (!g.latest_page_notification_at) g.latest_page_notification_at = n.created_at; });
      var html = renderNotificationGroups(data, v, lastRead, false);
      if (!html) return;
      var old = list.querySelector('li.notification[data-group-key="' + CSS.escape(key) + '"]');
      if (old) old.remove();
      var empty = list.querySelector("li.empty");
      if (empty) empty.remove();
      list.insertAdjacentHTML("afterbegin", html);
      checkTop();
    });
  }
  var seen = {};
  function onNotification(n) {
    if (!n || !n.id || seen[n.id]) return;
    seen[n.id] = true;
    bump(n.id);
    refreshCount();
    G.announce(text("client.pages.new_notification"));
    if (list && (list.getAttribute("data-filter") !== "mentions" || n.type === "mention")) insertLive(n);
  }
  G.stream("user:notification", {}, function (event, payload) {
    if (event === "notification") onNotification(payload);
  });
  G.on("notification", function (d) { onNotification(d && d.notification ? d.notification : d); });
  G.on("stream:open", function () { document.documentElement.setAttribute("data-notifications-live", "1"); });

  function saveMarker(id) {
    return G.api("POST", "/api/v1/markers", { notifications: { last_read_id: id } }).then(null, function (e) {
      if (e && e.status === 409) return G.api("POST", "/api/v1/markers", { notifications: { last_read_id: id } });
      throw e;
    });
  }
  var markButton = document.getElementById("mark-all-read");
  if (markButton) markButton.addEventListener("click", function () {
    var id = newest;
    if (!id) { setBadge(0); return; }
    markButton.disabled = true;
    saveMarker(id).then(function () {
      if (isNewerId(id, lastRead)) lastRead = id;
      if (list) list.querySelectorAll("li.notification.unread").forEach(function (li) {
        if (!isNewerId(li.getAttribute("data-id"), lastRead)) {
          li.classList.remove("unread");
          var mark = li.querySelector(".unread-mark");
          if (mark) mark.remove();
        }
      });
      setBadge(0);
      refreshCount();
      G.announce(text("client.pages.marked_read"));
    }, function (e) {
      G.announce(text("client.pages.error").replace("{error}", e.message));
    }).then(function () { markButton.disabled = false; });
  });

  // The top of the list seen while the page is visible: saved as read when the page is left.
  function checkTop() {
    if (!list || document.visibilityState !== "visible") return;
    var first = list.querySelector("li.notification[data-id]");
    if (!first) return;
    var r = first.getBoundingClientRect();
    if (r.top < window.innerHeight && r.bottom > 0) {
      var id = first.getAttribute("data-id");
      if (isNewerId(id, topSeen)) topSeen = id;
    }
  }
  function leave() {
    if (!topSeen || !isNewerId(topSeen, lastRead)) return;
    var id = topSeen;
    lastRead = id;
    try {
      fetch("/api/v1/markers", {
        method: "POST",
        keepalive: true,
        headers: { Authorization: "Bearer " + G.token, "Content-Type": "application/json", Accept: "application/json" },
        body: JSON.stringify({ notifications: { last_read_id: id } }),
      }).catch(function () {});
    } catch (e) { /* leaving anyway */ }
  }
  if (list) {
    checkTop();
    var ticking = false;
    window.addEventListener("scroll", function () {
      if (ticking) return;
      ticking = true;
      requestAnimationFrame(function () { ticking = false; checkTop(); });
    }, { passive: true });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") checkTop(); else leave();
    });
    window.addEventListener("pagehide", leave);
  }

  // A reply posted from this page's compose box joins the thread under its parent.
  var thread = document.getElementById("thread");
  if (thread) {
    var liOf = function (id) { return thread.querySelector('li[data-id="' + CSS.escape(id) + '"]'); };
    G.on("status:posted", function (d) {
      var st = d && d.status;
      if (!st || !st.in_reply_to_id || liOf(st.id)) return;
      var parent = liOf(st.in_reply_to_id);
      if (!parent) return;
      var h = renderStatus(st, v);
      if (!h) return;
      var m = /depth-(d)/.exec(parent.className);
      var depth = Math.min(m ? Number(m[1]) + 1 : 1, 5);
      var at = parent;
      while (at.nextElementSibling && /depth-(d)/.test(at.nextElementSibling.className) && Number(/depth-(d)/.exec(at.nextElementSibling.className)[1]) >= depth) at = at.nextElementSibling;
      at.insertAdjacentHTML("afterend", '<li data-id="' + esc(st.id) + '" class="descendant depth-' + depth + '">' + h + "</li>");
    });
    G.on("status:deleted", function (d) {
      var li = d && d.id ? liOf(d.id) : null;
      if (li && !li.classList.contains("focus")) li.remove();
    });
  }

  function nextOf(link) {
    var m = /<([^>]+)>;\\s*rel="next"/.exec(link || "");
    if (!m) return null;
    try { var u = new URL(m[1], location.href); return u.pathname + u.search; } catch (e) { return null; }
  }
  document.addEventListener("click", function (e) {
    var t = e.target;
    if (!t || !t.closest) return;
    var fr = t.closest("button[data-follow-request]");
    if (fr) {
      var action = fr.getAttribute("data-follow-request");
      var p = fr.parentNode;
      p.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      G.api("POST", "/api/v1/follow_requests/" + encodeURIComponent(fr.getAttribute("data-account-id")) + "/" + (action === "authorize" ? "authorize" : "reject")).then(function () {
        p.textContent = text(action === "authorize" ? "client.pages.accepted" : "client.pages.rejected");
      }, function (err) {
        p.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        G.announce(text("client.pages.error").replace("{error}", err.message));
      });
      return;
    }
    var conv = t.closest("a[data-conversation-id]");
    if (conv && !e.ctrlKey && !e.metaKey && !e.shiftKey && e.button === 0) {
      e.preventDefault();
      var href = conv.getAttribute("href");
      G.api("POST", "/api/v1/conversations/" + encodeURIComponent(conv.getAttribute("data-conversation-id")) + "/read")
        .then(null, function () {}).then(function () { location.href = href; });
      return;
    }
    var more = t.closest("button.pages-more[data-pages-next]");
    if (more) {
      var ul = document.getElementById(more.getAttribute("data-list"));
      var kind = more.getAttribute("data-kind");
      if (!ul) return;
      more.disabled = true;
      G.api("GET", more.getAttribute("data-pages-next")).then(function (data) {
        var count = 0;
        if (kind === "notifications") {
          count = data.notification_groups.length;
          ul.insertAdjacentHTML("beforeend", renderNotificationGroups(data, v, lastRead, false));
        } else if (kind === "statuses") {
          count = data.length;
          G.insertStatuses(ul, data, "bottom");
        } else if (kind === "conversations") {
          count = data.length;
          if (count > 0) ul.insertAdjacentHTML("beforeend", renderConversations(data, v));
        } else if (kind === "accounts") {
          count = data.length;
          if (count > 0) ul.insertAdjacentHTML("beforeend", renderAccounts(data, v));
        }
        var next = nextOf(data && data._link);
        if (next && count > 0) { more.setAttribute("data-pages-next", next); more.disabled = false; }
        else more.remove();
      }, function (err) {
        more.disabled = false;
        G.announce(text("client.pages.error").replace("{error}", err.message));
      });
    }
  });
})();
`;
