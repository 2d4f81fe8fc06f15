// The Rose King pages' own stylesheet (roseking.css), linked once by the play and replay UIs.

export function useStyles() {
  if (document.getElementById("roseking-css")) return;
  const link = document.createElement("link");
  link.id = "roseking-css";
  link.rel = "stylesheet";
  link.href = "/static/roseking/roseking.css";
  document.head.append(link);
}
