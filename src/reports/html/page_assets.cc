#include "reports/html/page_assets.h"

namespace pt2lint::html {

std::string_view page_style() {
  return R"css(
[hidden] { display: none !important; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 2rem 3rem; color: #111827; }
h1 { margin: 1.2rem 0 0.4rem; } h2 { margin-top: 2rem; border-bottom: 1px solid #d1d5db; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #d1d5db; padding: 2px 8px; text-align: left; vertical-align: top; }
th { background: #f3f4f6; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 12px "DejaVu Sans Mono", monospace; background: #f3f4f6; padding: 0 2px; }
.sev { font-weight: bold; padding: 0 6px; border-radius: 3px; }
.sev-error { background: #fee2e2; color: #991b1b; } .sev-warning { background: #fef3c7; color: #92400e; }
.sev-note { background: #e0f2fe; color: #075985; }
#filters { position: sticky; top: 0; background: #fff; padding: 0.5rem 0; border-bottom: 1px solid #d1d5db; z-index: 1; }
#filters label { margin-right: 0.8rem; white-space: nowrap; }
.finding { display: flex; flex-wrap: wrap; gap: 1rem; border: 1px solid #d1d5db; border-radius: 6px; margin: 0.8rem 0; padding: 0.6rem 0.8rem; }
.finding .text { flex: 1 1 28rem; min-width: 20rem; }
.finding .picture { flex: 0 1 auto; overflow-x: auto; max-width: 100%; }
.finding h4 { margin: 0 0 0.3rem; } .finding .where { color: #4b5563; }
.finding .fix { background: #ecfdf5; border-left: 3px solid #059669; padding: 2px 6px; }
.baseline { color: #6b7280; font-style: italic; }
details.file { border: 1px solid #d1d5db; border-radius: 6px; margin: 0.4rem 0; padding: 0.3rem 0.8rem; }
details.file > summary { cursor: pointer; font-weight: 600; }
details.folded { margin: -0.4rem 0 0.8rem 1.5rem; } details.folded > summary { color: #4b5563; cursor: pointer; }
.no-findings { font-size: 1.3rem; padding: 0.8rem 1rem; background: #ecfdf5; border-left: 4px solid #059669; }
#filters input[type=search] { font: inherit; }
details.rule-doc pre { white-space: pre-wrap; background: #f9fafb; padding: 0.5rem; border: 1px solid #e5e7eb; }
.diff-changed { background: #fef9c3; } .diff-lost { background: #fee2e2; } .diff-added { background: #dcfce7; }
)css";
}

std::string_view filter_script() {
  return R"js(
(function () {
  const findings = Array.from(document.querySelectorAll('article.finding'));
  if (findings.length === 0) return;
  const boxes = Array.from(document.querySelectorAll('#filters input[type=checkbox]'));
  const search = document.getElementById('search');
  const fileFilter = document.getElementById('file-filter');
  const groups = Array.from(document.querySelectorAll('details.file'));
  const shown = document.getElementById('shown-count');
  // Each finding's words, read once at the first search: loading the page pays nothing.
  let words = null;
  function apply() {
    const rules = new Set(boxes.filter(b => b.dataset.filter === 'rule' && b.checked).map(b => b.value));
    const severities = new Set(boxes.filter(b => b.dataset.filter === 'severity' && b.checked).map(b => b.value));
    const text = search ? search.value.trim().toLowerCase() : '';
    if (text !== '' && words === null) words = findings.map(f => f.textContent.toLowerCase());
    const file = fileFilter ? fileFilter.value : '';
    let count = 0;
    const visibleIn = new Map();
    findings.forEach((f, i) => {
      const visible = rules.has(f.dataset.rule) && severities.has(f.dataset.severity) &&
                      (file === '' || f.dataset.file === file) && (text === '' || words[i].includes(text));
      f.hidden = !visible;
      if (visible) {
        count++;
        visibleIn.set(f.dataset.file, (visibleIn.get(f.dataset.file) || 0) + 1);
      }
    });
    const narrowed = text !== '' || file !== '';
    for (const g of groups) {
      g.hidden = !visibleIn.has(g.dataset.file);
      // A search or a chosen file opens what it found; folded causes open with them.
      if (narrowed && !g.hidden) {
        g.open = true;
        for (const d of g.querySelectorAll('details.folded'))
          if (d.querySelector('article.finding:not([hidden])')) d.open = true;
      }
    }
    shown.textContent = String(count);
  }
  function only(kind, value) {
    for (const b of boxes) if (b.dataset.filter === kind) b.checked = (b.value === value);
    apply();
  }
  for (const b of boxes) b.addEventListener('change', apply);
  if (search) search.addEventListener('input', apply);
  if (fileFilter) fileFilter.addEventListener('change', apply);
  for (const a of document.querySelectorAll('[data-only-rule]'))
    a.addEventListener('click', e => { e.preventDefault(); only('rule', a.dataset.onlyRule); });
  for (const a of document.querySelectorAll('[data-open-file]'))
    a.addEventListener('click', () => {
      const g = document.getElementById('file-' + a.dataset.openFile);
      if (g) { g.hidden = false; g.open = true; }
    });
  const all = document.getElementById('show-all');
  if (all) all.addEventListener('click', e => {
    e.preventDefault();
    for (const b of boxes) b.checked = true;
    if (search) search.value = '';
    if (fileFilter) fileFilter.value = '';
    apply();
  });
  apply();
})();
)js";
}

}  // namespace pt2lint::html
