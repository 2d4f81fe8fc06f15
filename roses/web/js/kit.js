// What every page builds with: elements and SVG elements in one call, the keyboard focus
// kept across redraws, and the way to the sign-in page.

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * An HTML element: el("button", {class: "x", onclick: f}, "text", child). An attribute that
 * is null, undefined or false is left out (true: present and empty); "on…" adds a listener.
 * Children may be nodes, texts, numbers or arrays of them; null, undefined and false are
 * skipped.
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

/**
 * An SVG element, built as ``el`` builds an HTML one: svg("circle", {cx, cy, r}).
 * @param {string} tag
 * @param {Record<string, any>} [attributes]
 * @param {...any} children
 * @returns {SVGElement}
 */
export function svg(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

function build(node, attributes, children) {
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex], [data-key]";

// What identifies a control across redraws: its data-key, its id, or its kind, name and
// text (a control drawn again is a new node).
function focusKey(node) {
  return node.dataset?.key || node.id
    || `${node.tagName}|${node.getAttribute("name") || ""}|${node.getAttribute("aria-label") || node.textContent.trim()}`;
}

/**
 * The key of the control that has the keyboard focus inside ``container``, or null.
 * @param {Element} container
 * @returns {string | null}
 */
export function focusedKey(container) {
  const active = document.activeElement;
  return active && active !== container && container.contains(active) ? focusKey(active) : null;
}

/**
 * The control of ``container`` with that key (see focusedKey), or null.
 * @param {Element} container
 * @param {string} key
 * @returns {HTMLElement | null}
 */
export function keyed(container, key) {
  return [...container.querySelectorAll(FOCUSABLE)].find((node) => focusKey(node) === key) || null;
}

/**
 * Replaces ``container``'s children; the control that had the keyboard focus in it gets it
 * back when it is drawn again. True if the focus was inside and found its control again,
 * false if it was inside and its control is gone (the caller chooses where it goes), null
 * if the focus was elsewhere.
 * @param {Element} container
 * @param {...(Node | string)} children
 * @returns {boolean | null}
 */
export function replaceKeepingFocus(container, ...children) {
  const key = focusedKey(container);
  container.replaceChildren(...children);
  if (key === null) return null;
  const again = keyed(container, key);
  again?.focus({ preventScroll: true }); // a disabled button takes no focus: false
  return Boolean(again) && document.activeElement === again;
}

// A page that needs a signed-in player sends a visitor to the sign-in page, which brings
// them back here afterwards.
export function toSignIn() {
  location.assign(`/?next=${encodeURIComponent(location.pathname)}`);
}
