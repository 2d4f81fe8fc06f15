// A page part's own stylesheet, linked once. The promise settles when the sheet has loaded
// (or failed to), so a module that awaits it at its top is never drawn unstyled: a board
// laid out before its CSS arrives jumps about on a slow connection.

export function linkStylesheet(href) {
  let link = document.head.querySelector(`link[rel="stylesheet"][href="${href}"]`);
  if (!link) {
    link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
  if (link.sheet) return Promise.resolve();
  return new Promise((settle) => {
    link.addEventListener("load", settle, { once: true });
    link.addEventListener("error", settle, { once: true });
  });
}
