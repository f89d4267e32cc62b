// Cloudlet's cookie banner: shown until a choice is made (kept in the eval store, so it resets per task).
function cookies(kind) {
  window.evalStore.set("cookies", kind);
  document.getElementById("cookie").hidden = true;
}
window.addEventListener("DOMContentLoaded", function () {
  if (!window.evalStore.get("cookies", null)) document.getElementById("cookie").hidden = false;
});
