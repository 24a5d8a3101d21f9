# Report formats, configuration and baselines (docs/configuration.md). Included by
# tests/CMakeLists.txt.
# Corpus-wide tests exit 77 when ../shared/corpus is absent and are then reported skipped.
set(PT2LINT_REPORT_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/golden/reports)
set(PT2LINT_REPORT_WORK ${CMAKE_CURRENT_BINARY_DIR}/reports_work)

add_test(NAME reports_schemas_corpus
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/schemas/validate_reports.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${PT2LINT_REPORT_WORK}/schemas)
add_test(NAME reports_sarif_fingerprints_stable
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_REPORT_TESTS}/cli_fingerprints.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR})
add_test(NAME reports_baseline_fails_only_on_new_file
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_REPORT_TESTS}/cli_baseline.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${PT2LINT_REPORT_WORK}/baseline)
set_tests_properties(reports_schemas_corpus reports_sarif_fingerprints_stable
                     reports_baseline_fails_only_on_new_file PROPERTIES SKIP_RETURN_CODE 77)
set_tests_properties(reports_schemas_corpus PROPERTIES LABELS whole-corpus)

add_test(NAME reports_golden_cli
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_REPORT_TESTS}/cli_golden.py $<TARGET_FILE:pt2lint>)
add_test(NAME reports_cli_options
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_REPORT_TESTS}/cli_options.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_REPORT_WORK}/options)
# --changed-files: findings on the export script's line only when the pull request changed it.
add_test(NAME reports_sarif_github_changed_files
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_REPORT_TESTS}/cli_changed_files.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR})
add_test(NAME reports_precommit_hook
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_REPORT_TESTS}/cli_precommit.py
          $<TARGET_FILE_DIR:pt2lint> ${CMAKE_SOURCE_DIR}
          ${PT2LINT_REPORT_TESTS}/counter_clean.pt2 ${PT2LINT_REPORT_TESTS}/counter_broken.pt2)

# The published JSON schemas (docs/schemas/) hold for check and contract on every program of
# tests/data and the corpus, and reject a broken report.
add_test(NAME reports_json_schemas
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/schemas/validate_json_reports.py
          $<TARGET_FILE:pt2lint> ${PROJECT_SOURCE_DIR} ${PT2LINT_CORPUS_DIR})
# ~260 processes: the schemas do not depend on the sanitizers, so the Release tree alone runs it.
set_tests_properties(reports_json_schemas PROPERTIES LABELS no-sanitizer)
