// Marks, in one frame, every element that shows a secret: a field whose value or placeholder holds
// one, and the innermost element whose text holds one (a text node, or text split over several
// inline elements). Open shadow roots are searched too. Earlier marks are cleared first, so the
// marks always describe the frame as it is now. Returns how many elements are marked.
(forms) => {
  const MARK = "data-waypost-secret";
  const SKIP = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE", "HEAD"]);
  const has = (s) => !!s && forms.some((f) => s.includes(f));
  const roots = [document];
  const all = [];
  for (let i = 0; i < roots.length; i++) {
    for (const el of roots[i].querySelectorAll("*")) {
      all.push(el);
      if (el.shadowRoot) roots.push(el.shadowRoot);
    }
  }
  for (const el of all) if (el.hasAttribute(MARK)) el.removeAttribute(MARK);
  const marked = new Set();
  let textHit = false;
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || SKIP.has(parent.tagName) || !has(node.data)) continue;
      marked.add(parent);
      textHit = true;
    }
  }
  for (const el of all) {
    const tag = el.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      if (has(el.value) || has(el.placeholder)) marked.add(el);
    }
  }
  // A secret split over elements (<b>sk-</b>live...) is in no single text node: take the innermost
  // element whose text holds it. Only searched when no text node matched, as it costs more.
  if (!textHit && roots.some((r) => has(r === document ? document.body && document.body.textContent : r.textContent))) {
    for (const el of all) {
      if (SKIP.has(el.tagName) || !has(el.textContent)) continue;
      if (Array.from(el.children).some((c) => has(c.textContent))) continue;
      marked.add(el);
    }
  }
  for (const el of marked) el.setAttribute(MARK, "");
  return marked.size;
}
