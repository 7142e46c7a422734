// The top bar's decision before the first paint: a tiny classic script in
// the <head> (an external file, as the CSP wants; nothing is painted before
// a <head> script has run) marks the document with the visitor's side of the
// announcement's window (this script's data-start..data-end, inclusive), and
// the stylesheet shows or hides the bar by that mark (chrome.css), so a bar
// the visitor's date hides or shows never moves the page once painted. The
// runtime sets the bar's hidden attribute by the same rule (topbar.js).
(function () {
  var s = document.currentScript;
  if (!s) return;
  var d = new Date();
  var p = function (n) {
    return (n < 10 ? '0' : '') + n;
  };
  var today = d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate());
  var inside = s.getAttribute('data-start') <= today && today <= s.getAttribute('data-end');
  document.documentElement.setAttribute('data-topbar', inside ? 'on' : 'off');
})();
