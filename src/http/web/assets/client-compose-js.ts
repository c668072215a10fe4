import * as count from "../client/compose-count.ts";
import { functionsSource } from "./client-render-js.ts";

/**
 * `/assets/client-compose.js` (runs after client-render.js and client-core.js): the compose box
 * (posting, replies, quotes, edits, media with alt text and focus, polls), and the helpers it
 * shares with `client-actions.js` as `Gannet.posts`. Everything goes through the API with
 * `Gannet.api` (docs/web-client-compose.md).
 */
export const clientComposeJs = String.raw`"use strict";
${functionsSource(count)}
(function () {
  var G = window.Gannet;
  if (!G) return;
  var VIS = ["public", "unlisted", "private", "direct"];

  function tx(key, vars) {
    var s = (G.view && G.view.l && G.view.l[key]) || key;
    return s.replace(/\{(\w+)\}/g, function (m, n) { return vars && n in vars ? String(vars[n]) : m; });
  }
  function fail(err) { G.announce(tx("client.compose.action_failed", { error: err && err.message ? err.message : String(err) })); }
  function sel(id) { return '[data-id="' + CSS.escape(id) + '"]'; }
  function articles(id) { return Array.prototype.slice.call(document.querySelectorAll("article.status" + sel(id))); }
  function path(id) { return "/api/v1/statuses/" + encodeURIComponent(id); }
  function removeStatus(id) {
    articles(id).forEach(function (a) {
      var li = a.closest("ul.statuses > li");
      (li || a).remove();
    });
  }
  function removeAccountPosts(accountId) {
    document.querySelectorAll('ul.statuses > li article.status[data-account-id="' + CSS.escape(accountId) + '"]').forEach(function (a) {
      a.closest("ul.statuses > li").remove();
    });
  }
  /** Puts an updated post in place of every copy on the page (a boost keeps its "boosted by" line). */
  function replaceStatus(s) {
    articles(s.id).forEach(function (a) {
      var t = document.createElement("template");
      t.innerHTML = renderStatus(s, G.view);
      var fresh = t.content.querySelector("article.status");
      if (!fresh) return;
      var by = a.querySelector(":scope > .boosted-by");
      if (by) { fresh.insertBefore(by, fresh.firstChild); fresh.dataset.wrapperId = a.dataset.wrapperId; }
      a.replaceWith(fresh);
    });
  }

  // ---- the compose box ----
  var box = (function () {
    var form = document.getElementById("compose");
    if (!form) return null;
    var d = form.dataset;
    var max = Number(d.maxCharacters), urlLen = Number(d.urlLength), maxMedia = Number(d.maxMedia);
    var maxOptions = Number(d.maxOptions), maxOptionChars = Number(d.maxOptionCharacters), descLimit = Number(d.descriptionLimit);
    var text = form.querySelector("#compose-text");
    var cw = form.querySelector("#compose-cw");
    var cwRow = form.querySelector("#compose-cw-row");
    var cwBtn = form.querySelector('[data-compose="cw"]');
    var pollBtn = form.querySelector('[data-compose="poll"]');
    var pollAdd = form.querySelector('[data-compose="poll-add"]');
    var pollBox = form.querySelector("#compose-poll");
    var pollList = form.querySelector("#compose-poll-options");
    var pollMultiple = form.querySelector("#compose-poll-multiple");
    var pollExpires = form.querySelector("#compose-poll-expires");
    var expiresDefault = pollExpires.value;
    var file = form.querySelector("#compose-file");
    var fileLabel = file.closest("label");
    var mediaList = form.querySelector("#compose-media");
    var sensitiveRow = form.querySelector("#compose-sensitive-row");
    var sensitive = form.querySelector("#compose-sensitive");
    var sensitiveDefault = sensitive.checked;
    var visibility = form.querySelector("#compose-visibility");
    var language = form.querySelector("#compose-language");
    var remaining = form.querySelector("#compose-remaining");
    var countBox = form.querySelector("#compose-count");
    var submit = form.querySelector("#compose-submit");
    var errorBox = form.querySelector("#compose-error");
    var ctxBox = form.querySelector("#compose-context");
    var ctxText = ctxBox.querySelector(".compose-context-text");
    var st = { replyTo: null, quoteId: null, editId: null, media: [], uploads: 0, busy: false };

    function pollInputs() { return Array.prototype.slice.call(pollList.querySelectorAll("input")); }
    function update() {
      var n = composeLength((cwRow.hidden ? "" : cw.value) + text.value, urlLen);
      var left = max - n;
      remaining.textContent = String(left);
      countBox.classList.toggle("over", left < 0);
      var pollOn = !pollBox.hidden;
      var ready = st.media.filter(function (m) { return m.id; }).length;
      var pollOk = !pollOn || pollInputs().filter(function (i) { return i.value.trim() !== ""; }).length >= 2;
      submit.disabled = st.busy || st.uploads > 0 || left < 0 || (text.value.trim() === "" && ready === 0) || !pollOk;
      pollBtn.disabled = st.media.length > 0;
      file.disabled = pollOn || st.media.length >= maxMedia;
      fileLabel.classList.toggle("disabled", file.disabled);
      fileLabel.title = pollOn ? tx("client.compose.media_or_poll") : "";
      pollBtn.title = st.media.length > 0 ? tx("client.compose.media_or_poll") : "";
      sensitiveRow.hidden = st.media.length === 0;
    }

    // Content warning
    function setCw(on, value) {
      cwRow.hidden = !on;
      cwBtn.setAttribute("aria-pressed", on ? "true" : "false");
      if (value !== undefined) cw.value = value;
      update();
    }
    cwBtn.addEventListener("click", function () {
      setCw(cwRow.hidden);
      (cwRow.hidden ? text : cw).focus();
    });

    // Poll
    function renumber() {
      var items = pollList.children;
      for (var i = 0; i < items.length; i++) {
        var input = items[i].querySelector("input");
        var rm = items[i].querySelector("button");
        input.setAttribute("aria-label", tx("client.compose.poll_option", { n: i + 1 }));
        input.placeholder = tx("client.compose.poll_option", { n: i + 1 });
        rm.setAttribute("aria-label", tx("client.compose.poll_remove", { n: i + 1 }));
        rm.disabled = items.length <= 2;
      }
      pollAdd.disabled = items.length >= maxOptions;
    }
    function addOption(value) {
      var li = document.createElement("li");
      var input = document.createElement("input");
      input.type = "text";
      input.name = "poll_option";
      input.maxLength = maxOptionChars;
      input.value = value || "";
      var rm = document.createElement("button");
      rm.type = "button";
      rm.className = "secondary";
      rm.dataset.compose = "poll-remove";
      rm.textContent = "\u00d7";
      li.appendChild(input);
      li.appendChild(rm);
      pollList.appendChild(li);
      renumber();
      return input;
    }
    function setPoll(on, poll) {
      pollBox.hidden = !on;
      pollBtn.setAttribute("aria-pressed", on ? "true" : "false");
      pollList.textContent = "";
      pollMultiple.checked = !!(poll && poll.multiple);
      pollExpires.value = expiresDefault;
      if (on) {
        (poll ? poll.options : []).forEach(function (o) { addOption(o); });
        while (pollList.children.length < 2) addOption("");
      }
      update();
    }
    pollBtn.addEventListener("click", function () {
      setPoll(pollBox.hidden);
      if (!pollBox.hidden) pollInputs()[0].focus();
    });
    pollAdd.addEventListener("click", function () {
      if (pollList.children.length < maxOptions) addOption("").focus();
      update();
    });
    pollList.addEventListener("click", function (e) {
      var rm = e.target.closest('[data-compose="poll-remove"]');
      if (!rm || pollList.children.length <= 2) return;
      rm.closest("li").remove();
      renumber();
      update();
      pollInputs()[0].focus();
    });
    pollList.addEventListener("input", update);

    // Media: upload, description (alt text), focus point
    function setMediaState(item, textValue) { item.state.textContent = textValue; }
    function dirty(m) { return m.id && !m.attached && (m.description !== m.savedDescription || m.focus !== m.savedFocus); }
    function saveMedia(m) {
      var body = { description: m.description };
      if (m.focus) body.focus = m.focus;
      var desc = m.description, focus = m.focus;
      return G.api("PUT", "/api/v1/media/" + encodeURIComponent(m.id), body).then(function () {
        m.savedDescription = desc;
        m.savedFocus = focus;
      });
    }
    function showFocus(m) {
      if (!m.focus || !m.mark) return;
      var xy = m.focus.split(",").map(Number);
      m.mark.style.left = ((xy[0] + 1) / 2) * 100 + "%";
      m.mark.style.top = ((1 - xy[1]) / 2) * 100 + "%";
      m.mark.hidden = false;
      m.focusText.textContent = tx("client.compose.media_focus_value", { x: xy[0].toFixed(2), y: xy[1].toFixed(2) });
    }
    function mediaItem(m, previewUrl, name) {
      var li = document.createElement("li");
      if (previewUrl) {
        var preview = document.createElement("button");
        preview.type = "button";
        preview.className = "preview";
        preview.title = tx("client.compose.media_focus");
        var img = document.createElement("img");
        img.src = previewUrl;
        img.alt = "";
        var mark = document.createElement("span");
        mark.className = "focus-mark";
        mark.hidden = true;
        preview.appendChild(img);
        preview.appendChild(mark);
        li.appendChild(preview);
        m.mark = mark;
        preview.addEventListener("click", function (e) {
          if (m.attached || e.detail === 0) return;
          var r = img.getBoundingClientRect();
          var clamp = function (v) { return Math.max(-1, Math.min(1, Math.round(v * 100) / 100)); };
          var x = clamp(((e.clientX - r.left) / r.width) * 2 - 1);
          var y = clamp(1 - ((e.clientY - r.top) / r.height) * 2);
          m.focus = x + "," + y;
          showFocus(m);
          if (m.id) saveMedia(m).catch(fail);
        });
        // Arrow keys move the focal point too (saved when the key is released).
        preview.addEventListener("keydown", function (e) {
          var step = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, 0.1], ArrowDown: [0, -0.1] }[e.key];
          if (!step || m.attached) return;
          e.preventDefault();
          var xy = (m.focus || "0,0").split(",").map(Number);
          var c2 = function (v) { return Math.max(-1, Math.min(1, Math.round(v * 10) / 10)); };
          m.focus = c2(xy[0] + step[0]) + "," + c2(xy[1] + step[1]);
          showFocus(m);
        });
        preview.addEventListener("keyup", function (e) {
          if (/^Arrow/.test(e.key) && m.id && dirty(m)) saveMedia(m).catch(fail);
        });
      } else {
        var p = document.createElement("p");
        p.textContent = name;
        li.appendChild(p);
      }
      m.state = document.createElement("p");
      m.state.className = "media-state";
      m.state.setAttribute("aria-live", "polite");
      li.appendChild(m.state);
      m.focusText = document.createElement("p");
      m.focusText.className = "media-state";
      li.appendChild(m.focusText);
      var label = document.createElement("label");
      label.textContent = tx("client.compose.media_description");
      var desc = document.createElement("textarea");
      desc.name = "description";
      desc.maxLength = descLimit;
      desc.value = m.description;
      desc.readOnly = !!m.attached;
      if (m.attached) desc.title = tx("client.compose.media_attached");
      label.appendChild(desc);
      li.appendChild(label);
      desc.addEventListener("input", function () { m.description = desc.value; });
      desc.addEventListener("change", function () { if (dirty(m)) saveMedia(m).catch(fail); });
      var rm = document.createElement("button");
      rm.type = "button";
      rm.className = "secondary media-remove";
      rm.textContent = tx("client.compose.media_remove");
      rm.addEventListener("click", function () {
        st.media = st.media.filter(function (x) { return x !== m; });
        if (m.id && !m.attached) G.api("DELETE", "/api/v1/media/" + encodeURIComponent(m.id)).catch(function () {});
        if (m.blob) URL.revokeObjectURL(m.blob);
        li.remove();
        update();
        text.focus();
      });
      li.appendChild(rm);
      m.li = li;
      mediaList.appendChild(li);
      showFocus(m);
      return li;
    }
    function processed(m, tries) {
      if (m.url !== null || tries > 120) return Promise.resolve(m);
      return new Promise(function (r) { setTimeout(r, 1000); }).then(function () {
        return G.api("GET", "/api/v1/media/" + encodeURIComponent(m.id)).then(function (n) { return processed(n, tries + 1); });
      });
    }
    function upload(f) {
      var m = { id: null, description: "", savedDescription: "", focus: null, savedFocus: null, attached: false };
      if (/^image\//.test(f.type)) m.blob = URL.createObjectURL(f);
      st.media.push(m);
      st.uploads++;
      mediaItem(m, m.blob || null, f.name);
      setMediaState(m, tx("client.compose.media_uploading", { name: f.name }));
      update();
      var fd = new FormData();
      fd.append("file", f);
      G.api("POST", "/api/v2/media", fd)
        .then(function (r) { return processed(r, 0); })
        .then(
          function (r) {
            m.id = r.id;
            m.li.dataset.mediaId = r.id;
            setMediaState(m, "");
            if (dirty(m)) return saveMedia(m);
          },
          function (err) {
            st.media = st.media.filter(function (x) { return x !== m; });
            m.li.remove();
            fail(err);
          },
        )
        .catch(fail)
        .then(function () {
          st.uploads--;
          update();
        });
    }
    file.addEventListener("change", function () {
      var files = Array.prototype.slice.call(file.files || []);
      var room = maxMedia - st.media.length;
      if (files.length > room) G.announce(tx("client.compose.media_too_many", { count: maxMedia }));
      files.slice(0, Math.max(0, room)).forEach(upload);
      file.value = "";
    });

    // Reply, quote, edit
    function setContext(label) {
      ctxText.textContent = label;
      ctxBox.hidden = false;
    }
    function cancelContext() {
      if (st.editId) { reset(); return; }
      st.replyTo = null;
      st.quoteId = null;
      ctxBox.hidden = true;
      visibility.value = d.defaultVisibility;
      text.focus();
    }
    ctxBox.querySelector('[data-compose="cancel"]').addEventListener("click", cancelContext);
    function reset() {
      st.media.forEach(function (m) { if (m.blob) URL.revokeObjectURL(m.blob); });
      st.media = [];
      mediaList.textContent = "";
      text.value = "";
      setCw(false, "");
      setPoll(false);
      st.replyTo = st.quoteId = st.editId = null;
      ctxBox.hidden = true;
      visibility.value = d.defaultVisibility;
      visibility.disabled = false;
      language.value = d.defaultLanguage;
      sensitive.checked = sensitiveDefault;
      submit.textContent = tx("client.compose.submit");
      errorBox.hidden = true;
      update();
    }
    function focusBox() {
      form.scrollIntoView({ block: "nearest" });
      text.focus();
      text.setSelectionRange(text.value.length, text.value.length);
    }
    function reply(article) {
      if (st.editId) reset();
      var id = article.dataset.id;
      st.replyTo = id;
      st.quoteId = null;
      setContext(tx("client.replying_to", { acct: "@" + article.dataset.acct }));
      // A reply is never more public than the post it answers, nor than the default.
      var v = Math.max(VIS.indexOf(article.dataset.visibility), VIS.indexOf(d.defaultVisibility));
      visibility.value = VIS[Math.max(0, v)];
      var mentions = article.dataset.accountId === G.view.me ? [] : ["@" + article.dataset.acct];
      var prefill = mentions.length ? mentions.join(" ") + " " : "";
      if (text.value.trim() === "") text.value = prefill;
      update();
      focusBox();
      G.api("GET", path(id)).then(function (s) {
        (s.mentions || []).forEach(function (m) {
          if (m.id !== G.view.me && mentions.indexOf("@" + m.acct) < 0) mentions.push("@" + m.acct);
        });
        if (st.replyTo !== id) return;
        if (text.value === prefill && mentions.length) text.value = mentions.join(" ") + " ";
        if (s.spoiler_text && cwRow.hidden && cw.value === "") setCw(true, s.spoiler_text);
        update();
        focusBox();
      }, function () {});
    }
    function quote(article) {
      if (st.editId) reset();
      st.quoteId = article.dataset.id;
      st.replyTo = null;
      setContext(tx("client.compose.quoting", { acct: "@" + article.dataset.acct }));
      focusBox();
    }
    function edit(article) {
      var id = article.dataset.id;
      Promise.all([G.api("GET", path(id) + "/source"), G.api("GET", path(id))]).then(function (r) {
        var src = r[0], s = r[1];
        reset();
        st.editId = id;
        text.value = src.text || "";
        setCw(!!src.spoiler_text, src.spoiler_text || "");
        visibility.value = s.visibility;
        visibility.disabled = true;
        if (s.language && language.querySelector('option[value="' + CSS.escape(s.language) + '"]')) language.value = s.language;
        sensitive.checked = !!s.sensitive;
        (s.media_attachments || []).forEach(function (a) {
          var m = { id: a.id, description: a.description || "", savedDescription: a.description || "", focus: null, savedFocus: null, attached: true };
          st.media.push(m);
          mediaItem(m, a.type === "image" ? a.preview_url : null, a.description || a.type);
        });
        if (s.poll) setPoll(true, { options: s.poll.options.map(function (o) { return o.title; }), multiple: s.poll.multiple });
        setContext(tx("client.compose.editing"));
        submit.textContent = tx("client.compose.save");
        update();
        focusBox();
      }, fail);
    }
    function send() {
      update();
      if (submit.disabled) return;
      st.busy = true;
      errorBox.hidden = true;
      update();
      Promise.all(st.media.filter(dirty).map(saveMedia))
        .then(function () {
          var body = {
            status: text.value,
            spoiler_text: cwRow.hidden ? "" : cw.value,
            sensitive: st.media.length > 0 && sensitive.checked,
            language: language.value || undefined,
            media_ids: st.media.map(function (m) { return m.id; }),
          };
          if (!pollBox.hidden) {
            body.poll = {
              options: pollInputs().map(function (i) { return i.value.trim(); }).filter(Boolean),
              multiple: pollMultiple.checked,
              expires_in: Number(pollExpires.value),
            };
          }
          if (st.editId) {
            return G.api("PUT", path(st.editId), body).then(function (s) {
              replaceStatus(s);
              G.emit("status:edited", { status: s });
              G.announce(tx("client.compose.saved"));
            });
          }
          body.visibility = visibility.value;
          if (st.replyTo) body.in_reply_to_id = st.replyTo;
          if (st.quoteId) body.quoted_status_id = st.quoteId;
          // One key per post being written: a retried request cannot post it twice.
          st.idempotencyKey = st.idempotencyKey || (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());
          return G.api("POST", "/api/v1/statuses", body, { "Idempotency-Key": st.idempotencyKey }).then(function (s) {
            st.idempotencyKey = null;
            G.emit("status:posted", { status: s });
            G.announce(tx("client.compose.posted"));
          });
        })
        .then(
          function () {
            st.busy = false;
            reset();
          },
          function (err) {
            st.busy = false;
            errorBox.textContent = tx("client.compose.failed", { error: err && err.message ? err.message : String(err) });
            errorBox.hidden = false;
            update();
          },
        );
    }
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      send();
    });
    form.addEventListener("input", update);
    form.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && (e.target === text || e.target === cw)) {
        e.preventDefault();
        send();
      } else if (e.key === "Escape" && !ctxBox.hidden) {
        e.preventDefault();
        cancelContext();
      }
    });
    reset();
    return { reply: reply, quote: quote, edit: edit, removeStatus: removeStatus };
  })();

  // Posts written on /web/compose are listed under the box.
  G.on("status:posted", function (detail) {
    var list = document.querySelector("ul.statuses[data-compose-posted]");
    if (list && detail && detail.status) G.insertStatuses(list, [detail.status], "top");
  });

  // What the actions script (client-actions.js, loaded next) shares with this one.
  G.posts = { tx: tx, fail: fail, articles: articles, path: path, box: box,
    removeStatus: removeStatus, removeAccountPosts: removeAccountPosts, replaceStatus: replaceStatus };
})();
`;
