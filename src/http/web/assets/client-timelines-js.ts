/**
 * `/assets/client-timelines.js` (runs after client-core.js), on the client's timeline pages
 * (`ul.statuses[data-timeline]`, client/timelines.ts), the hashtag page's follow button and the
 * lists page:
 * - "Load more" fetches the API's next page (`data-next`, then each answer's `Link: rel="next"`);
 * - live updates from the streaming API (`data-stream`, `data-stream-tag`, `data-stream-list`):
 *   `update` adds a post (at once when the reader is at the top, else behind the "N new posts"
 *   button), `delete` removes one, `status.update` replaces one; the viewer's own posts
 *   (`status:posted`) go to the top of home; `filters_changed` renders the newest posts again;
 * - on home, the newest post seen at the top is saved as the home marker (`POST /api/v1/markers`);
 * - keys: `j`/`k` move between posts, `.` shows the waiting new posts.
 */
export const clientTimelinesJs = `"use strict";
(function () {
  var G = window.Gannet;
  if (!G) return;
  var view = G.view;
  function l(key, vars) { return (view.l[key] || key).replace(/\\{(\\w+)\\}/g, function (m, n) { return vars && n in vars ? String(vars[n]) : m; }); }
  function lp(key, count) { return l(key + (count === 1 ? ".one" : ".other"), { count: count }); }
  function big(id) { try { return BigInt(id); } catch (e) { return 0n; } }
  function pathOf(url) { try { var u = new URL(url, location.href); return u.pathname + u.search; } catch (e) { return null; } }
  function nextLink(link) {
    if (!link) return null;
    var parts = link.split(",");
    for (var i = 0; i < parts.length; i++) {
      var m = /<([^>]+)>\\s*;\\s*rel="?next"?/.exec(parts[i]);
      if (m) return pathOf(m[1]);
    }
    return null;
  }
  function failure(err) { return l("client.timelines.failed", { error: (err && err.message) || "" }); }

  // The hashtag page's follow button.
  document.querySelectorAll("button.tag-follow[data-tag]").forEach(function (btn) {
    btn.addEventListener("click", function () {
      var tag = btn.getAttribute("data-tag");
      var following = btn.getAttribute("aria-pressed") === "true";
      btn.disabled = true;
      G.api("POST", "/api/v1/tags/" + encodeURIComponent(tag) + (following ? "/unfollow" : "/follow")).then(function (t) {
        var now = !!(t && t.following);
        btn.setAttribute("aria-pressed", now ? "true" : "false");
        btn.textContent = btn.getAttribute(now ? "data-unfollow-label" : "data-follow-label");
        G.announce(l(now ? "client.timelines.tag_followed" : "client.timelines.tag_unfollowed", { name: tag }));
      }, function (err) { G.announce(failure(err)); }).then(function () { btn.disabled = false; });
    });
  });

  // The lists page: create and delete lists through the API.
  var lists = document.querySelector("ul.client-lists");
  function listItem(list) {
    var title = esc(list.title);
    return '<li data-list-id="' + esc(list.id) + '"><a href="/lists/' + encodeURIComponent(list.id) + '">' + title +
      '</a> <button type="button" class="list-delete" data-list-id="' + esc(list.id) + '" data-title="' + title +
      '" aria-label="' + esc(l("client.timelines.delete_list", { title: list.title })) + '">' + esc(l("client.timelines.delete")) + "</button></li>";
  }
  if (lists) {
    lists.addEventListener("click", function (ev) {
      var btn = ev.target.closest("button.list-delete");
      if (!btn) return;
      var id = btn.getAttribute("data-list-id");
      var title = btn.getAttribute("data-title");
      if (!window.confirm(l("client.timelines.delete_confirm", { title: title }))) return;
      btn.disabled = true;
      G.api("DELETE", "/api/v1/lists/" + encodeURIComponent(id)).then(function () {
        var li = btn.closest("li");
        if (li) li.remove();
        if (!lists.querySelector("li")) lists.insertAdjacentHTML("beforeend", '<li class="empty">' + esc(lists.getAttribute("data-empty")) + "</li>");
        G.announce(l("client.timelines.list_deleted", { title: title }));
      }, function (err) { btn.disabled = false; G.announce(failure(err)); });
    });
    var form = document.querySelector("form.list-create");
    if (form) {
      form.addEventListener("submit", function (ev) {
        ev.preventDefault();
        var error = form.querySelector(".error");
        var button = form.querySelector("button[type=submit]");
        var body = {
          title: form.elements.title.value,
          replies_policy: form.elements.replies_policy.value,
          exclusive: form.elements.exclusive.checked,
        };
        button.disabled = true;
        G.api("POST", "/api/v1/lists", body).then(function (list) {
          var empty = lists.querySelector("li.empty");
          if (empty) empty.remove();
          lists.insertAdjacentHTML("beforeend", listItem(list));
          form.reset();
          if (error) error.hidden = true;
          G.announce(l("client.timelines.list_created", { title: list.title }));
        }, function (err) {
          if (error) { error.textContent = failure(err); error.hidden = false; }
        }).then(function () { button.disabled = false; });
      });
    }
  }

  // A hashtag in a post opens the hashtag's timeline in the client (its link names the public page).
  document.addEventListener("click", function (ev) {
    if (ev.defaultPrevented || ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    var a = ev.target.closest && ev.target.closest("article.status .content a.hashtag, article.status .content a[rel~=tag]");
    if (!a) return;
    var name = (a.textContent || "").trim().replace(/^#/, "");
    if (!name) return;
    ev.preventDefault();
    location.href = "/web/tags/" + encodeURIComponent(name);
  });

  var ul = document.querySelector("ul.statuses[data-timeline]");
  if (!ul) return;
  var kind = ul.getAttribute("data-timeline");

  // Load more: the API's next page, by its Link header.
  var more = document.querySelector("a.load-more");
  var next = ul.getAttribute("data-next");
  if (more && next) {
    var moreButton = document.createElement("button");
    moreButton.type = "button";
    moreButton.className = "load-more";
    moreButton.textContent = more.textContent;
    more.replaceWith(moreButton);
    moreButton.addEventListener("click", function () {
      if (!next) return;
      moreButton.disabled = true;
      moreButton.setAttribute("aria-busy", "true");
      G.api("GET", next).then(function (statuses) {
        statuses = statuses || [];
        var link = nextLink(statuses._link);
        G.insertStatuses(ul, statuses, "bottom");
        G.announce(lp("client.timelines.loaded", statuses.length));
        next = statuses.length > 0 ? link : null;
        if (!next) {
          var end = document.createElement("p");
          end.className = "timeline-end";
          end.textContent = l("client.timelines.end");
          moreButton.replaceWith(end);
        }
      }, function (err) {
        G.announce(l("client.timelines.load_failed", { error: (err && err.message) || "" }));
      }).then(function () {
        moreButton.disabled = false;
        moreButton.removeAttribute("aria-busy");
      });
    });
  }

  // New posts: inserted at once at the top, queued behind a button when the reader scrolled down.
  var queue = [];
  var newButton = document.createElement("button");
  newButton.type = "button";
  newButton.className = "new-items";
  newButton.hidden = true;
  ul.parentNode.insertBefore(newButton, ul);
  function atTop() { return ul.getBoundingClientRect().top >= -40; }
  function showQueued() {
    if (queue.length === 0) return;
    var statuses = queue;
    queue = [];
    newButton.hidden = true;
    G.insertStatuses(ul, statuses, "top");
    ul.scrollIntoView({ block: "start" });
    seen();
    var first = ul.querySelector("li[data-id] article.status");
    if (first) first.focus({ preventScroll: true });
  }
  newButton.addEventListener("click", showQueued);
  function has(id) {
    return !!ul.querySelector('li[data-id="' + CSS.escape(id) + '"]') || queue.some(function (s) { return s.id === id; });
  }
  function add(status) {
    if (!status || !status.id || has(status.id)) return;
    if (queue.length === 0 && atTop()) { G.insertStatuses(ul, [status], "top"); seen(); return; }
    queue.unshift(status);
    newButton.textContent = lp("client.new_posts", queue.length);
    newButton.hidden = false;
  }
  function matches(a, id) { return a === String(id); }
  function remove(id) {
    queue = queue.filter(function (s) { return !matches(s.id, id); });
    ul.querySelectorAll("li[data-id]").forEach(function (li) {
      var art = li.querySelector("article.status");
      if (matches(li.getAttribute("data-id"), id) || (art && matches(art.getAttribute("data-id"), id))) li.remove();
    });
    if (queue.length === 0) newButton.hidden = true;
    else newButton.textContent = lp("client.new_posts", queue.length);
  }
  function replace(status) {
    if (!status || !status.id) return;
    queue = queue.map(function (s) { return s.id === status.id ? status : s; });
    var li = ul.querySelector('li[data-id="' + CSS.escape(status.id) + '"]');
    if (!li) return;
    var h = renderStatus(status, view);
    if (h) li.innerHTML = h;
    else li.remove();
  }
  // Filters changed (home's user stream): the newest posts as the API filters them now.
  function refilter() {
    if (kind !== "home") return;
    G.api("GET", "/api/v1/timelines/home?limit=40").then(function (statuses) {
      if (!statuses || statuses.length === 0) return;
      var oldest = big(statuses[statuses.length - 1].id);
      ul.querySelectorAll("li[data-id]").forEach(function (li) {
        if (big(li.getAttribute("data-id")) >= oldest) li.remove();
      });
      G.insertStatuses(ul, statuses, "top");
    }, function () {});
  }

  var stream = ul.getAttribute("data-stream");
  if (stream) {
    var params = {};
    if (ul.hasAttribute("data-stream-tag")) params.tag = ul.getAttribute("data-stream-tag");
    if (ul.hasAttribute("data-stream-list")) params.list = ul.getAttribute("data-stream-list");
    G.stream(stream, params, function (event, payload) {
      if (event === "update") add(payload);
      else if (event === "delete") remove(payload);
      else if (event === "status.update") replace(payload);
      else if (event === "filters_changed") refilter();
    });
    // The user's own new post goes to the top of home at once, wherever the reader is.
    if (kind === "home") G.on("status:posted", function (d) {
      if (!d || !d.status) return;
      queue = queue.filter(function (s) { return s.id !== d.status.id; });
      G.insertStatuses(ul, [d.status], "top");
    });
  }
  G.on("status:deleted", function (d) { if (d && d.id) remove(d.id); });

  // The home marker: the newest post seen at the top, saved a moment after it was seen.
  var lastRead = ul.getAttribute("data-last-read");
  var markerTimer = null;
  function seen() {
    if (kind !== "home" || lastRead === null || !atTop()) return;
    var first = ul.querySelector("li[data-id]");
    if (!first) return;
    var id = first.getAttribute("data-id");
    if (lastRead && big(id) <= big(lastRead)) return;
    clearTimeout(markerTimer);
    markerTimer = setTimeout(function () {
      G.api("POST", "/api/v1/markers", { home: { last_read_id: id } }).then(function () {
        if (!lastRead || big(id) > big(lastRead)) lastRead = id;
        ul.setAttribute("data-marker-saved", id);
      }, function () {});
    }, 1500);
  }
  var scrollTimer = null;
  window.addEventListener("scroll", function () {
    clearTimeout(scrollTimer);
    scrollTimer = setTimeout(function () {
      if (atTop() && queue.length > 0 && !newButton.hidden) return;
      seen();
    }, 200);
  }, { passive: true });
  seen();

  // Keys: j/k between posts, "." for the new posts.
  function targets() {
    var out = [];
    ul.querySelectorAll(":scope > li[data-id]").forEach(function (li) {
      var art = li.querySelector("article.status");
      var target = art && art.getClientRects().length > 0 ? art : li.querySelector("summary");
      if (target) out.push(target);
    });
    return out;
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.defaultPrevented) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (ev.key === ".") { ev.preventDefault(); showQueued(); return; }
    if (ev.key !== "j" && ev.key !== "k") return;
    var list = targets();
    if (list.length === 0) return;
    var current = -1;
    for (var i = 0; i < list.length; i++) {
      var li = list[i].closest("li");
      if (li && li.contains(document.activeElement)) { current = i; break; }
    }
    var to = ev.key === "j" ? current + 1 : current - 1;
    if (current === -1) to = 0;
    if (to < 0 || to >= list.length) return;
    ev.preventDefault();
    list[to].focus();
    list[to].scrollIntoView({ block: "nearest" });
  });
})();
`;
