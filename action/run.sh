#!/usr/bin/env bash
# The GitHub Action's step (action.yml): installs pt2lint from its wheel into a fresh venv,
# then checks PT2LINT_PATHS (space-separated, relative to GITHUB_WORKSPACE) and writes
#   - the SARIF report to PT2LINT_SARIF_FILE,
#   - annotations on stdout (workflow commands) and the Markdown report to GITHUB_STEP_SUMMARY,
#   - a bounded pull-request comment body to PT2LINT_COMMENT_FILE when it is set,
#   - the full HTML report to PT2LINT_REPORT_FILE when it is set,
# and the outputs sarif-file, comment-file, report-file and exit-code to GITHUB_OUTPUT.
# With PT2LINT_CHANGED_FILES (a file, or `auto`: the pull request's diff), annotations and
# SARIF results point at an export script's line only when the pull request changed it.
# It exits 1 when pt2lint finds errors and PT2LINT_FAIL_ON_ERROR is true, 2 on a usage or
# I/O error (no wheel, a path that does not exist, a bad config), which never passes silently.
# tests/ci/action_simulated_run.py runs it with the runner's environment simulated.
set -euo pipefail

: "${GITHUB_WORKSPACE:?GITHUB_WORKSPACE must be set (the runner sets it)}"
: "${GITHUB_OUTPUT:?GITHUB_OUTPUT must be set (the runner sets it)}"
paths=${PT2LINT_PATHS:-.}
wheel=${PT2LINT_WHEEL:-}
changed_files=${PT2LINT_CHANGED_FILES-auto}
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

# pt2lint is not published on PyPI: a bare requirement resolved there could install whoever
# registered the name. The wheel is a file or URL, or a requirement for an index the user
# names instead of PyPI (--index-url) or for find-links alone (--no-index).
if [ -z "$wheel" ]; then
  echo "::error title=pt2lint::the 'wheel' input is required: the path or URL of the pt2lint wheel (docs/ci.md)"
  exit 2
fi
if [[ ! -e "$wheel" && "$wheel" != *://* ]]; then
  case " ${pip_args[*]} " in
    *" --index-url"* | *" -i "* | *" --no-index "*) ;;
    *)
      echo "::error title=pt2lint::wheel '$wheel' is neither a file nor a URL, and pip-args names no --index-url or --no-index: pt2lint is not on PyPI, so pip would install whatever package holds that name there"
      exit 2
      ;;
  esac
fi

temp=${RUNNER_TEMP:-$(mktemp -d)}
# The files the pull request changed (`--changed-files`), from its event: the diff between
# its base commit (fetched when a shallow checkout lacks it) and the checked-out merge
# commit. Prints nothing when the event is not a pull request or git cannot tell.
pull_request_changes() {
  case "${GITHUB_EVENT_NAME:-}" in pull_request | pull_request_target) ;; *) return 0 ;; esac
  local base list="$temp/pt2lint-changed-files"
  base=$("$python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["pull_request"]["base"]["sha"])' \
    "${GITHUB_EVENT_PATH:-}" 2>/dev/null) || return 0
  git -C "$GITHUB_WORKSPACE" cat-file -e "$base^{commit}" 2>/dev/null ||
    git -C "$GITHUB_WORKSPACE" fetch --quiet --no-tags --depth=1 origin "$base" 2>/dev/null || return 0
  git -C "$GITHUB_WORKSPACE" diff --name-only "$base" HEAD >"$list" 2>/dev/null || return 0
  echo "$list"
}
if [ "$changed_files" = auto ]; then
  changed_files=$(pull_request_changes)
  if [ -n "$changed_files" ]; then
    echo "pt2lint: $(wc -l <"$changed_files") files changed in this pull request: findings point at export-script lines it changed, else at the .pt2"
  fi
fi
if [ -n "$changed_files" ]; then
  changed_args=(--changed-files "$changed_files")
else
  changed_args=()
fi

# One venv per job: a second use of the action in the same job reuses it.
venv="$temp/pt2lint-venv"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
echo "::group::Install pt2lint ($wheel)"
"$venv/bin/python" -m pip install --disable-pip-version-check --no-input "${pip_args[@]}" "$wheel"
echo "::endgroup::"
pt2lint="$venv/bin/pt2lint"

cd "$GITHUB_WORKSPACE"
check=("$pt2lint" check "${path_list[@]}" --source-root "$source_root" "${changed_args[@]}" "${extra_args[@]}")
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
