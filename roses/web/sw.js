// The service worker, served at /sw.js so that its scope is the whole site: it keeps the
// offline page (and what it shows) and serves it when a page cannot be reached, and it
// shows the server's push messages (notify/push.py), whose words the server wrote in the
// player's language; a click opens the game, or brings forward a tab that shows it.

const CACHE = "roses-offline-1";
const OFFLINE = "/offline";
const KEPT = [OFFLINE, "/static/style.css", "/static/rose.svg", "/static/icons/rose-192.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// Everything comes from the network as before; only when it fails does a page become the
// offline page (and the offline page's own files come from the cache).
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  const url = new URL(request.url);
  if (url.origin === self.location.origin && KEPT.includes(url.pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(url.pathname)));
  }
});

self.addEventListener("push", (event) => {
  let news;
  try {
    news = event.data?.json();
  } catch {
    return; // not one of ours
  }
  if (!news?.body) return;
  event.waitUntil(self.registration.showNotification(news.title || "roses", {
    body: news.body,
    tag: news.tag,
    lang: news.language,
    icon: "/static/icons/rose-192.png",
    data: { url: news.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin);
  event.waitUntil((async () => {
    const tabs = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const showing = tabs.find((tab) => new URL(tab.url).pathname === target.pathname);
    if (showing) return showing.focus();
    return self.clients.openWindow(target.href);
  })());
});
