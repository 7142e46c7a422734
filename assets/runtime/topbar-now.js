// The top bar's decision before the first paint: a tiny classic script
// right after the bar (an external file, as the CSP wants), so that a bar
// the visitor's date hides or shows never moves the page once painted. The
// runtime applies the same rule (topbar.js) after a swap.
(function () {
  var bars = document.querySelectorAll('.topbar[data-start][data-end]');
  var bar = bars[bars.length - 1];
  if (!bar) return;
  var d = new Date();
  var p = function (n) {
    return (n < 10 ? '0' : '') + n;
  };
  var today = d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate());
  bar.hidden = !(bar.getAttribute('data-start') <= today && today <= bar.getAttribute('data-end'));
})();
