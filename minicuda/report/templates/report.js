// The report's links: a source line <-> its instructions and CFG blocks, inside one kernel's section.
(function () {
  "use strict";
  function clear(section) {
    section.querySelectorAll(".hl").forEach(function (e) { e.classList.remove("hl"); });
  }
  function showLine(section, line) {
    clear(section);
    var blocks = {};
    section.querySelectorAll('tr.src-line[data-line="' + line + '"]').forEach(function (r) { r.classList.add("hl"); });
    section.querySelectorAll('tr.sass-ins[data-line="' + line + '"]').forEach(function (r) {
      r.classList.add("hl");
      blocks[r.dataset.block] = true;
    });
    section.querySelectorAll('g[data-lines~="' + line + '"]').forEach(function (g) { g.classList.add("hl"); });
    Object.keys(blocks).forEach(function (id) {
      var g = section.querySelector('g[id="' + id + '"]');
      if (g) { g.classList.add("hl"); }
    });
    var first = section.querySelector("tr.sass-ins.hl");
    if (first) { first.scrollIntoView({block: "nearest"}); }
  }
  document.querySelectorAll("section.kernel").forEach(function (section) {
    section.querySelectorAll("tr.src-line").forEach(function (row) {
      row.addEventListener("click", function () { showLine(section, row.dataset.line); });
    });
    section.querySelectorAll("tr.sass-ins").forEach(function (row) {
      row.addEventListener("click", function () {
        showLine(section, row.dataset.line);
        row.classList.add("hl");
        var src = section.querySelector('tr.src-line[data-line="' + row.dataset.line + '"]');
        if (src) { src.scrollIntoView({block: "nearest"}); }
      });
    });
  });
})();
