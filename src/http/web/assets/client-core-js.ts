/**
 * `/assets/client-core.js`: what every web client page's scripts share, as `window.Gannet`:
 * - `view`, `page`: the state the server rendered the page with (`#client-state`);
 * - `api(method, path, body, headers)`: a call to the server's API with the session's token (JSON
 *   in and out; FormData bodies are sent as they are; `headers` adds some, such as
 *   `Idempotency-Key`); rejects with an Error carrying `status` and the API's `error` text;
 * - `stream(name, params, onEvent)`: a subscription on the one shared WebSocket to the streaming
 *   API (reconnecting with back-off); `onEvent(event, payload)` gets the parsed payload;
 * - `on(name, fn)` / `emit(name, detail)`: events between the client's scripts
 *   (`status:posted`, `status:deleted`, `notification`, ...);
 * - `announce(text)`: a message for screen readers and a short toast;
 * - `insertStatuses(list, statuses, where)`: renders posts with the shared renderer into a list.
 */
export const clientCoreJs = `"use strict";
(function () {
  var stateEl = document.getElementById("client-state");
  if (!stateEl) return;
  var state = JSON.parse(stateEl.textContent || "{}");
  var tokenMeta = document.querySelector('meta[name="gannet-token"]');
  var token = tokenMeta ? tokenMeta.getAttribute("content") : "";
  var listeners = {};
  var G = {
    view: state.view,
    page: state.page || {},
    token: token,
    on: function (name, fn) { (listeners[name] = listeners[name] || []).push(fn); },
    emit: function (name, detail) { (listeners[name] || []).forEach(function (fn) { try { fn(detail); } catch (e) { console.error(e); } }); },
  };
  G.api = function (method, path, body, extra) {
    var headers = Object.assign({}, extra || {}, { Authorization: "Bearer " + token, Accept: "application/json" });
    var init = { method: method, headers: headers };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(body); }
    return fetch(path, init).then(function (res) {
      var link = res.headers.get("Link");
      return res.text().then(function (text) {
        var data = null;
        try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
        if (!res.ok) {
          var err = new Error((data && data.error) || res.statusText || ("HTTP " + res.status));
          err.status = res.status;
          throw err;
        }
        if (data && typeof data === "object") Object.defineProperty(data, "_link", { value: link, enumerable: false });
        return data;
      });
    });
  };
  var live = document.createElement("div");
  live.className = "client-live";
  live.setAttribute("role", "status");
  live.setAttribute("aria-live", "polite");
  document.body.appendChild(live);
  G.announce = function (text) {
    live.textContent = text;
    live.classList.add("shown");
    clearTimeout(G._announceTimer);
    G._announceTimer = setTimeout(function () { live.classList.remove("shown"); }, 4000);
  };
  var subs = [];
  var socket = null;
  var retry = 1000;
  function key(name, params) { return name + "|" + JSON.stringify(params || {}); }
  function send(msg) { if (socket && socket.readyState === 1) socket.send(JSON.stringify(msg)); }
  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + (state.streaming || "/api/v1/streaming");
    socket = new WebSocket(url, token);
    socket.onopen = function () {
      retry = 1000;
      subs.forEach(function (s) { var m = Object.assign({ type: "subscribe", stream: s.name }, s.params); send(m); });
      document.documentElement.setAttribute("data-stream-open", "1");
      G.emit("stream:open");
    };
    socket.onmessage = function (ev) {
      var msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      var payload = msg.payload;
      // JSON payloads are objects or arrays; a bare id (delete) stays a string, exact.
      if (typeof payload === "string" && /^[[{]/.test(payload)) { try { payload = JSON.parse(payload); } catch (e) { /* plain text payload */ } }
      var streams = msg.stream || [];
      subs.forEach(function (s) {
        if (streams.length === 0 || streams[0] === s.name) s.fn(msg.event, payload, streams);
      });
    };
    socket.onclose = function () {
      socket = null;
      document.documentElement.removeAttribute("data-stream-open");
      if (subs.length === 0) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 30000);
    };
  }
  G.stream = function (name, params, fn) {
    var s = { name: name, params: params || {}, fn: fn, key: key(name, params) };
    subs.push(s);
    if (!socket) connect();
    else send(Object.assign({ type: "subscribe", stream: name }, s.params));
    return function () {
      subs = subs.filter(function (x) { return x !== s; });
      if (!subs.some(function (x) { return x.key === s.key; })) send(Object.assign({ type: "unsubscribe", stream: name }, s.params));
    };
  };
  G.insertStatuses = function (list, statuses, where) {
    var html = statuses.map(function (s) {
      if (list.querySelector('li[data-id="' + CSS.escape(s.id) + '"]')) return "";
      var h = renderStatus(s, G.view);
      return h ? '<li data-id="' + esc(s.id) + '">' + h + "</li>" : "";
    }).join("");
    var empty = list.querySelector("li.empty");
    if (html && empty) empty.remove();
    list.insertAdjacentHTML(where === "top" ? "afterbegin" : "beforeend", html);
  };
  window.Gannet = G;
})();
`;
