// Serialises one frame's DOM in the normalised form that browser/dom_hash.py documents.
// With a CSS selector as argument it also reports, from the same pass, the document title and
// whether any element in the document or an open shadow root matches that selector.
(maskSelector) => {
  const DROP_TAGS = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "LINK", "META"]);
  const VOLATILE = /^(data-wp-|data-waypost-|nonce$|integrity$|value$|checked$|selected$)/;
  const esc = (s) => s.replace(/[\\<>"=\n]/g, (c) => "\\" + c);
  const sensitive = (el) =>
    (el.type || "").toLowerCase() === "password" || el.hasAttribute("data-sensitive") ||
    el.hasAttribute("data-waypost-sensitive") || /^cc-/.test((el.getAttribute("autocomplete") || "").toLowerCase());
  const out = [];
  const roots = [document];
  const ser = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        const t = child.textContent.replace(/\s+/g, " ").trim();
        if (t) out.push(esc(t));
        continue;
      }
      if (child.nodeType !== Node.ELEMENT_NODE || DROP_TAGS.has(child.tagName)) continue;
      const el = child;
      const attrs = Array.from(el.attributes).map((a) => a.name).filter((n) => !VOLATILE.test(n)).sort();
      let open = "<" + el.tagName.toLowerCase();
      for (const n of attrs) open += " " + n + "=\"" + esc(el.getAttribute(n)) + "\"";
      const tag = el.tagName;
      if (tag === "INPUT" || tag === "TEXTAREA") {
        const type = (el.type || "").toLowerCase();
        if (type === "checkbox" || type === "radio") open += " :checked=" + el.checked;
        else if (sensitive(el)) open += " :len=" + el.value.length;
        else open += " :value=\"" + esc(el.value) + "\"";
      } else if (tag === "OPTION") {
        open += " :selected=" + el.selected;
      }
      out.push(open + ">");
      if (el.shadowRoot) {
        roots.push(el.shadowRoot);
        out.push("<#shadow>"); ser(el.shadowRoot); out.push("</#shadow>");
      }
      if (tag !== "TEXTAREA") ser(el);
      out.push("</>");
    }
  };
  ser(document);
  if (typeof maskSelector !== "string") return out.join("");
  // Where the viewport looks and which element has focus: what a picture shows that the DOM
  // serialisation does not (a scroll, a focus ring). Focus is named by its path of child indices.
  const focusPath = (el) => {
    const path = [];
    for (let at = el; at && at.parentElement; at = at.parentElement) {
      path.push(Array.prototype.indexOf.call(at.parentElement.children, at));
    }
    return path.reverse().join(".");
  };
  const view = [scrollX, scrollY, innerWidth, innerHeight, devicePixelRatio].join(",") + " focus " +
    (document.activeElement ? focusPath(document.activeElement) : "-");
  return {
    dom: out.join(""),
    view,
    title: document.title,
    sensitive: roots.some((root) => root.querySelector(maskSelector) !== null),
  };
}
