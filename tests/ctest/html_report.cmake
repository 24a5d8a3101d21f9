# `check --format html` (docs/graph.md): the report of the whole corpus in headless Chromium.
# Needs chromium, chromium-driver and python3-selenium (`make test-deps`); skipped (77)
# without them or without the corpus. Timed and driven by a browser: not under sanitizers.
add_test(NAME html_report_browser
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/html/browser_report.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/html_work)
set_tests_properties(html_report_browser PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300
                     LABELS no-sanitizer)

# `diff --format html`: the two contracts side by side, differences highlighted.
add_test(NAME html_diff_page
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/html/diff_page.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/html_work/diff)

# The device corpus in one html run: every finding drawn, also under the sanitizers.
add_test(NAME html_report_device
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/html/device_report.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device ${CMAKE_CURRENT_BINARY_DIR}/html_work/device)
