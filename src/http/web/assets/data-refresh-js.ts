/**
 * Progress that updates itself: an element with `data-refresh="SECONDS"` (an archive being
 * prepared, an import running) is fetched again every few seconds and its content replaced, until
 * the fresh page's element no longer asks for it. Without scripts, reloading the page does the same.
 */
export const dataRefreshJs = `(() => {
  const region = document.querySelector("[data-refresh]");
  if (!region || !region.id) return;
  const every = (Number(region.getAttribute("data-refresh")) || 5) * 1000;
  const tick = async () => {
    try {
      const res = await fetch(location.href, { credentials: "same-origin", headers: { accept: "text/html" } });
      if (res.ok) {
        const doc = new DOMParser().parseFromString(await res.text(), "text/html");
        const fresh = doc.getElementById(region.id);
        if (fresh) {
          region.innerHTML = fresh.innerHTML;
          if (!fresh.hasAttribute("data-refresh")) {
            region.removeAttribute("data-refresh");
            return;
          }
        }
      }
    } catch {}
    setTimeout(tick, every);
  };
  setTimeout(tick, every);
})();
`;
