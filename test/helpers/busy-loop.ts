/** Holds the event loop for `ms` on every turn (as a server swamped with work does) until stopped. */
export function blockEveryTurn(ms: number): () => void {
  const timer = setInterval(() => {
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // busy
    }
  }, 1);
  return () => clearInterval(timer);
}
