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
details.rule-doc pre { white-space: pre-wrap; background: #f9fafb; padding: 0.5rem; border: 1px solid #e5e7eb; }
.diff-changed { background: #fef9c3; } .diff-lost { background: #fee2e2; } .diff-added { background: #dcfce7; }
)css";
}

std::string_view filter_script() {
  return R"js(
(function () {
  const findings = Array.from(document.querySelectorAll('article.finding'));
  const boxes = Array.from(document.querySelectorAll('#filters input[type=checkbox]'));
  const shown = document.getElementById('shown-count');
  function apply() {
    const rules = new Set(boxes.filter(b => b.dataset.filter === 'rule' && b.checked).map(b => b.value));
    const severities = new Set(boxes.filter(b => b.dataset.filter === 'severity' && b.checked).map(b => b.value));
    let count = 0;
    for (const f of findings) {
      const visible = rules.has(f.dataset.rule) && severities.has(f.dataset.severity);
      f.hidden = !visible;
      if (visible) count++;
    }
    for (const file of document.querySelectorAll('section.file')) {
      file.hidden = file.querySelector('article.finding:not([hidden])') === null &&
                    file.querySelector('article.finding') !== null;
    }
    shown.textContent = String(count);
  }
  function only(kind, value) {
    for (const b of boxes) if (b.dataset.filter === kind) b.checked = (b.value === value);
    apply();
  }
  for (const b of boxes) b.addEventListener('change', apply);
  for (const a of document.querySelectorAll('[data-only-rule]'))
    a.addEventListener('click', e => { e.preventDefault(); only('rule', a.dataset.onlyRule); });
  const all = document.getElementById('show-all');
  if (all) all.addEventListener('click', e => { e.preventDefault(); for (const b of boxes) b.checked = true; apply(); });
  apply();
})();
)js";
}

}  // namespace pt2lint::html
