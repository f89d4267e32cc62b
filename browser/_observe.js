// Collects the interactive elements of one frame (open shadow roots included) in document order,
// marks each with `attr` = its global index so a Target(index=...) can find it again, and returns
// compact readable text. Password and sensitive values never leave the page.
({ start, attr, maxText, maxName, maxElements }) => {
  const INTERACTIVE = [
    "a[href]", "button", "input", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=checkbox]", "[role=radio]", "[role=tab]", "[role=menuitem]",
    "[role=option]", "[role=switch]", "[role=textbox]", "[role=combobox]", "[role=searchbox]",
    "[role=slider]", "[role=spinbutton]", "[contenteditable='']", "[contenteditable=true]", "[onclick]",
    "[role=menuitemcheckbox]", "[role=menuitemradio]", "[role=treeitem]", "[role=gridcell]",
  ].join(",");
  // Clickable without being semantic: a focusable element (tabindex >= 0), a click handler set as a
  // property, or the outermost element showing a pointer cursor (its children inherit the cursor;
  // a child with its own handler or name, like a trash icon in a clickable row, still counts).
  const focusable = (el) => { const t = el.getAttribute("tabindex"); return t !== null && t.trim() !== "-1"; };
  const named = (el) => el.hasAttribute("aria-label") || el.hasAttribute("title");
  const clickable = (el, pointer, parentPointer) =>
    el.matches(INTERACTIVE) || focusable(el) || typeof el.onclick === "function"
    || (pointer && (!parentPointer || named(el)));
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "HEAD"]);
  const clean = (s, n) => {
    const t = (s || "").replace(/\s+/g, " ").trim();
    return t.length > n ? t.slice(0, n - 1) + "…" : t;
  };
  const sensitive = (el) =>
    (el.type || "").toLowerCase() === "password" ||
    el.hasAttribute("data-sensitive") || el.hasAttribute("data-waypost-sensitive") ||
    /^cc-/.test((el.getAttribute("autocomplete") || "").toLowerCase());
  const textWithout = (node, skipEl) => {
    let out = "";
    for (const child of node.childNodes) {
      if (child === skipEl) continue;
      if (child.nodeType === Node.TEXT_NODE) out += child.textContent + " ";
      else if (child.nodeType === Node.ELEMENT_NODE && !/^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(child.tagName)) {
        out += textWithout(child, skipEl) + " ";
      }
    }
    return out;
  };
  const implicitRole = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || "text").toLowerCase();
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "textarea") return "textbox";
    if (tag === "select") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "input") {
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox" || type === "radio") return type;
      if (type === "range") return "slider";
      if (type === "number") return "spinbutton";
      if (type === "search") return "searchbox";
      if (type === "file") return "button";
      return "textbox";
    }
    if (el.isContentEditable) return "textbox";
    return null;
  };
  const nameOf = (el, root) => {
    const labelledby = el.getAttribute("aria-labelledby");
    if (labelledby) {
      const text = labelledby.split(/\s+/).map((id) => {
        const ref = root.getElementById ? root.getElementById(id) : document.getElementById(id);
        return ref ? ref.textContent : "";
      }).join(" ");
      if (clean(text, maxName)) return clean(text, maxName);
    }
    const aria = el.getAttribute("aria-label");
    if (aria && aria.trim()) return clean(aria, maxName);
    const tag = el.tagName;
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag)) {
      const type = (el.type || "").toLowerCase();
      if (["button", "submit", "reset"].includes(type)) return clean(el.value || type, maxName);
      let labels = el.labels ? Array.from(el.labels) : [];
      if (!labels.length && el.id && root.querySelectorAll) {
        labels = Array.from(root.querySelectorAll("label[for='" + CSS.escape(el.id) + "']"));
      }
      const text = labels.map((l) => textWithout(l, el)).join(" ");
      if (clean(text, maxName)) return clean(text, maxName);
      return clean(el.getAttribute("title") || el.getAttribute("placeholder") || "", maxName);
    }
    const own = clean(el.innerText || el.textContent, maxName);
    if (own && /[\p{L}\p{N}]/u.test(own)) return own;  // words; an icon glyph alone says less than its title
    const img = el.querySelector && el.querySelector("img[alt]");
    const svg = el.querySelector && el.querySelector("svg title");
    const inner = el.querySelector && el.querySelector("[aria-label], [title]");
    const icon = el.getAttribute("title") || (img ? img.getAttribute("alt") : "") || (svg ? svg.textContent : "")
      || (inner ? inner.getAttribute("aria-label") || inner.getAttribute("title") : "");
    return clean(icon || own || "", maxName);
  };
  const isVisible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return false;
    return el.checkVisibility ? el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) : true;
  };
  const elements = [];
  const visit = (parent, root, inShadow, parentPointer) => {
    for (const el of parent.children) {
      if (SKIP.has(el.tagName)) continue;
      if (el.hasAttribute(attr)) el.removeAttribute(attr);
      const hiddenInput = el.tagName === "INPUT" && (el.type || "").toLowerCase() === "hidden";
      const pointer = getComputedStyle(el).cursor === "pointer";
      if (!hiddenInput && elements.length < maxElements && clickable(el, pointer, parentPointer)) {
        const index = start + elements.length;
        el.setAttribute(attr, String(index));
        const tag = el.tagName.toLowerCase();
        const info = {
          index, tag, role: el.getAttribute("role") || implicitRole(el), name: nameOf(el, root),
          input_type: tag === "input" ? (el.type || "text").toLowerCase() : null,
          value: null, value_hidden: false, checked: null, options: [], placeholder: null, href: null,
          visible: isVisible(el), enabled: !el.matches(":disabled") && el.getAttribute("aria-disabled") !== "true",
          in_shadow: inShadow,
        };
        const ph = el.getAttribute("placeholder");
        if (ph) info.placeholder = clean(ph, maxName);
        if (tag === "a") info.href = clean(el.getAttribute("href"), 80);
        if (tag === "input" && ["checkbox", "radio"].includes(info.input_type)) info.checked = el.checked;
        else if (el.getAttribute("aria-checked")) info.checked = el.getAttribute("aria-checked") === "true";
        if (tag === "select") {
          info.options = Array.from(el.options).slice(0, 25).map((o) => clean(o.label || o.text, 40));
          info.value = Array.from(el.selectedOptions).map((o) => clean(o.label || o.text, 40)).join(", ") || null;
        } else if ((tag === "input" && !["checkbox", "radio", "button", "submit", "reset", "file", "image"].includes(info.input_type)) || tag === "textarea") {
          if (sensitive(el)) info.value_hidden = true;
          else if (el.value) info.value = clean(el.value, 100);
        }
        elements.push(info);
      }
      if (el.shadowRoot) visit(el.shadowRoot, el.shadowRoot, true, pointer);
      visit(el, root, inShadow, pointer);
    }
  };
  if (document.body) visit(document.body, document, false, false);
  const raw = document.body ? document.body.innerText || "" : "";
  const lines = raw.split("\n").map((l) => l.replace(/\s+/g, " ").trim()).filter((l) => l.length);
  let text = lines.join("\n");
  const truncated = text.length > maxText;
  if (truncated) text = text.slice(0, maxText);
  return { elements, text, truncated: truncated || elements.length >= maxElements };
}
