// Card filters of the evaluation page: by a metric's score range, text and the regenerate
// flag. Data comes from the JSON block, never from HTML, so nothing a bot wrote is run.
(function () {
  var node = document.getElementById("page-data");
  if (!node) return;
  var data = JSON.parse(node.textContent);
  var $ = function (id) { return document.getElementById(id); };
  var metric = $("f-metric"), min = $("f-min"), max = $("f-max"), text = $("f-text"), regen = $("f-regen");
  var cards = {};
  document.querySelectorAll("article.card").forEach(function (el) { cards[el.dataset.qid] = el; });

  function apply() {
    var m = metric.value, lo = parseFloat(min.value), hi = parseFloat(max.value);
    var needle = text.value.trim().toLowerCase(), shown = 0;
    data.cards.forEach(function (c) {
      var ok = true;
      if (m) {
        var v = c.scores[m];
        ok = v !== null && v !== undefined && !(v < lo) && !(v > hi);
      }
      if (ok && needle) ok = c.text.indexOf(needle) >= 0;
      if (ok && regen.checked) ok = c.regenerate;
      cards[c.id].hidden = !ok;
      if (ok) shown++;
    });
    $("f-shown").textContent = shown;
    var state = [];
    if (m) state.push("metric=" + encodeURIComponent(m));
    if (!isNaN(lo)) state.push("min=" + lo);
    if (!isNaN(hi)) state.push("max=" + hi);
    history.replaceState(null, "", state.length ? "#" + state.join("&") : location.pathname);
  }

  function setRange(m, lo, hi) {
    metric.value = m;
    min.value = lo === undefined ? "" : lo;
    max.value = hi === undefined ? "" : hi;
    apply();
  }

  [metric, min, max, text, regen].forEach(function (el) { el.addEventListener("input", apply); });
  metric.addEventListener("change", function () {
    var r = metric.value && data.metrics[metric.value].range;
    if (r) { min.value = r[0]; max.value = r[1]; }
    apply();
  });
  $("f-reset").addEventListener("click", function () { text.value = ""; regen.checked = false; setRange("", undefined, undefined); });
  document.querySelectorAll("rect.bin").forEach(function (bar) {
    bar.addEventListener("click", function () {
      setRange(bar.dataset.metric, bar.dataset.lo, bar.dataset.hi);
      $("filters").scrollIntoView();
    });
  });
  // A link such as diagnosis.html#metric=faithfulness&max=0.5 (from the Dagster UI) opens filtered.
  if (location.hash.length > 1 && location.hash.indexOf("=") > 0) {
    var p = {};
    location.hash.slice(1).split("&").forEach(function (kv) { var i = kv.indexOf("="); p[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1)); });
    if (p.metric && data.metrics[p.metric]) setRange(p.metric, p.min, p.max);
  }
})();
