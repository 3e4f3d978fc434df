// The site's behaviour that once was inline (the Content-Security-Policy allows scripts
// from this site's files only): a button with data-confirm asks before it submits.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
    }
  });
})();
