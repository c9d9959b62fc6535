// The service worker. tableaux.web.pwa serves this file at /sw.js with VERSION and FILES filled in: VERSION is
// a digest of the page's files, so a new version of any of them makes a new worker, which keeps the new files
// under a new name and deletes the old ones. Only the page's own files are kept, never an answer of the API:
// the cards a player has not turned up stay on the server, and every game is read from it.

const VERSION = "{{VERSION}}";
const FILES = {{FILES}};
const CACHE = `tableaux-${VERSION}`;
const PAGE = "/"; // the page itself, also for /daily and any address with a query
const PAGE_WAIT = 4000; // ms: a server slower than this to send the page gets the kept copy instead

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([PAGE, ...FILES])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("tableaux-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/")) return; // never kept: the network, and only the network, answers
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (FILES.includes(url.pathname)) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(url.pathname)).then((kept) => kept || fetch(request)));
  }
});

/**
 * The page: from the server when it answers in time, so a player always gets their cookie and the newest
 * page; else the kept copy, which starts, finds the server unreachable and says so (pwa.js). A server that
 * answers 502, 503 or 504 gets the same treatment: the kept page shows the offline screen and tries again.
 */
async function page(request) {
  const kept = () => caches.open(CACHE).then((cache) => cache.match(PAGE));
  let timer = 0;
  const slow = new Promise((resolve) => {
    timer = setTimeout(() => resolve(null), PAGE_WAIT);
  });
  try {
    const answer = await Promise.race([fetch(request), slow.then(() => kept())]);
    if (answer && ![502, 503, 504].includes(answer.status)) return answer;
  } catch {
    // no network, or the server is down
  } finally {
    clearTimeout(timer);
  }
  return (await kept()) || fetch(request);
}
