// Reports the page's state to the eval server after every input, change and click, synchronously,
// so the state is recorded before the agent's action returns. window.evalState holds app facts.
// window.evalStore is the site's shared store on the eval server (a cart, which messages were read):
// the server empties it between tasks, whatever the browser keeps.
(function () {
  window.evalState = window.evalState || {};
  function collect() {
    var fields = {};
    document.querySelectorAll("input, select, textarea").forEach(function (el) {
      var key = el.id || el.name;
      if (!key) return;
      fields[key] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
    });
    return { fields: fields, app: window.evalState, url: location.pathname + location.search };
  }
  function get(url) {
    var x = new XMLHttpRequest();
    x.open("GET", url, false);
    x.send();
    return x.responseText;
  }
  window.evalReport = function () {
    try {
      var body = encodeURIComponent(JSON.stringify(collect()));
      get("/__state?page=" + encodeURIComponent(location.pathname) + "&s=" + body);
    } catch (e) { /* the eval server is gone: nothing to report to */ }
  };
  window.evalStore = {
    get: function (key, fallback) {
      try {
        var value = JSON.parse(get("/__state/store?k=" + encodeURIComponent(key)));
        return value === null ? fallback : value;
      } catch (e) { return fallback; }
    },
    set: function (key, value) {
      try {
        get("/__state/store?k=" + encodeURIComponent(key) + "&v=" + encodeURIComponent(JSON.stringify(value)));
      } catch (e) { /* the eval server is gone */ }
      window.evalReport();
    }
  };
  ["input", "change", "click"].forEach(function (t) {
    document.addEventListener(t, function () { window.evalReport(); });
  });
  window.addEventListener("load", window.evalReport);
})();
