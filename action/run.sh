#!/usr/bin/env bash
# The GitHub Action's step (action.yml): installs pt2lint from its wheel into a fresh venv,
# then checks PT2LINT_PATHS (space-separated, relative to GITHUB_WORKSPACE) and writes
#   - the SARIF report to PT2LINT_SARIF_FILE,
#   - annotations on stdout (workflow commands) and the Markdown report to GITHUB_STEP_SUMMARY,
#   - a bounded pull-request comment body to PT2LINT_COMMENT_FILE when it is set,
#   - the full HTML report to PT2LINT_REPORT_FILE when it is set,
# and the outputs sarif-file, comment-file, report-file and exit-code to GITHUB_OUTPUT.
# It exits 1 when pt2lint finds errors and PT2LINT_FAIL_ON_ERROR is true, 2 on a usage or
# I/O error (a path that does not exist, a bad config), which never passes silently.
# tests/ci/action_simulated_run.py runs it with the runner's environment simulated.
set -euo pipefail

: "${GITHUB_WORKSPACE:?GITHUB_WORKSPACE must be set (the runner sets it)}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT must be set (the runner sets it)}"
paths=${PT2LINT_PATHS:-.}
wheel=${PT2LINT_WHEEL:-pt2lint}
source_root=${PT2LINT_SOURCE_ROOT:-$GITHUB_WORKSPACE}
sarif=${PT2LINT_SARIF_FILE:-pt2lint.sarif}
comment=${PT2LINT_COMMENT_FILE:-}
report=${PT2LINT_REPORT_FILE:-}
full_report=${PT2LINT_FULL_REPORT:-}
fail_on_error=${PT2LINT_FAIL_ON_ERROR:-true}
python=${PT2LINT_PYTHON:-python3}

# Word splitting of the inputs is intended: they are lists separated by spaces.
read -r -a path_list <<<"$paths"
read -r -a extra_args <<<"${PT2LINT_ARGS:-}"
read -r -a pip_args <<<"${PT2LINT_PIP_ARGS:-}"

# One venv per job: a second use of the action in the same job reuses it.
venv="${RUNNER_TEMP:-$(mktemp -d)}/pt2lint-venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
echo "::group::Install pt2lint ($wheel)"
"$venv/bin/python" -m pip install --disable-pip-version-check --no-input "${pip_args[@]}" "$wheel"
echo "::endgroup::"
pt2lint="$venv/bin/pt2lint"

cd "$GITHUB_WORKSPACE"
check=("$pt2lint" check "${path_list[@]}" --source-root "$source_root" "${extra_args[@]}")
if [ -n "$full_report" ]; then
  summary_args=(--full-report "$full_report")
else
  summary_args=()
fi

# pt2lint exits 0 (no errors), 1 (errors) or 2 (usage or I/O error). Each report is one run
# over the same files; a 2 from any of them stops the step.
run() {
  local status=0
  "$@" || status=$?
  if [ "$status" -gt 1 ]; then
    echo "::error title=pt2lint::pt2lint exited $status: see the log above"
    exit "$status"
  fi
  return "$status"
}

status=0
run "${check[@]}" --format sarif -o "$sarif" || status=$?
# Annotations go to the log, where the runner turns them into annotations; the Markdown
# report is appended to GITHUB_STEP_SUMMARY by the same run.
run "${check[@]}" --format github "${summary_args[@]}" || true
if [ -n "$comment" ]; then
  run "${check[@]}" --format markdown -o "$comment" "${summary_args[@]}" || true
fi
if [ -n "$report" ]; then
  run "${check[@]}" --format html -o "$report" || true
fi

{
  echo "sarif-file=$sarif"
  echo "comment-file=$comment"
  echo "report-file=$report"
  echo "exit-code=$status"
} >>"$GITHUB_OUTPUT"

if [ "$status" -ne 0 ] && [ "$fail_on_error" = true ]; then
  echo "pt2lint found errors (exit $status); set fail-on-error: 'false' to report without failing"
  exit "$status"
fi
exit 0
