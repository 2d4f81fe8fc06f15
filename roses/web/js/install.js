// Every page registers the service worker (/sw.js): the site installs as an app, shows its
// offline page when the network is down, and receives push messages (settings: reach.js).

export const serviceWorker = "serviceWorker" in navigator
  ? navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null)
  : Promise.resolve(null);
