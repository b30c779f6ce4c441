// Opens the panel of the loop the address names (#loop-UNIT-LINE: a click
// on a loop, or a link from elsewhere), highlights the loop's lines and
// brings them into view; a line link (#L0-12) keeps the panel open.
(function () {
  function lines(file, first, last, each) {
    for (var n = first; n <= last; n++) {
      var row = document.getElementById('L' + file + '-' + n);
      if (row) each(row);
    }
  }
  function show() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    if (target.classList.contains('loop-panel')) {
      document.querySelectorAll('.loop-panel.open').forEach(function (p) { p.classList.remove('open'); });
      document.querySelectorAll('tr.hl').forEach(function (r) { r.classList.remove('hl'); });
      target.classList.add('open');
      document.getElementById('hint').hidden = true;
      var d = target.dataset;
      lines(d.file, +d.first, +d.last, function (r) { r.classList.add('hl'); });
      var first = document.getElementById('L' + d.file + '-' + d.first);
      if (first) first.scrollIntoView({ block: 'center' });
      document.getElementById('panel').scrollTop = 0;
    } else if (target.tagName === 'TR') {
      target.scrollIntoView({ block: 'center' });
    }
  }
  window.addEventListener('hashchange', show);
  show();
})();
