# Issue 24, files that lie (tests/hostile/): each script generates its hostile files in the
# build folder and checks pt2lint's answer through the real CLI.
# - a sparse 4 GiB + 64 B archive in torch.export.save's zip64 layout: exit 0, no finding, < 5 s;
# - 40k aliases of one record and 40k write-backs of one buffer under 1 s each (the markdown
#   and HTML reports of the latter under 3 s), and deflate bombs (one member of 1 GB; three of
#   96 MiB, each within the budget alone) stopped by the inflate budget under 300 MB of peak
#   memory, with --jobs 2 too (timed: not under the sanitizers);
# - members beyond pt2lint's size bounds reported or read in place, --verify-data, the time
#   budget and inert CLI errors (check_unread_members.py);
# - writers: links at OUT and at temporary names, a FIFO, a full disk, 8 concurrent runs;
# - names inert in text, github, markdown (CommonMark renderers) and html (Chromium).
add_test(NAME hostile_zip64_sparse
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/hostile/make_zip64_sparse.py
          ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/hostile_work/zip64_sparse.pt2
          $<TARGET_FILE:pt2lint>)
set_tests_properties(hostile_zip64_sparse PROPERTIES TIMEOUT 120 LABELS no-sanitizer)
add_test(NAME hostile_blowups
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/hostile/make_blowups.py
          ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/hostile_work/blowups
          $<TARGET_FILE:pt2lint>)
set_tests_properties(hostile_blowups PROPERTIES TIMEOUT 180 LABELS no-sanitizer)
add_test(NAME hostile_writers
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/hostile/check_writers.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/hostile_work/writers)
set_tests_properties(hostile_writers PROPERTIES TIMEOUT 120)
add_test(NAME hostile_inert_reports
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/hostile/check_inert_reports.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/hostile_work/reports)
set_tests_properties(hostile_inert_reports PROPERTIES TIMEOUT 120 SKIP_RETURN_CODE 77 LABELS no-sanitizer)
add_test(NAME hostile_unread_members
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/hostile/check_unread_members.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/hostile_work/unread_members)
set_tests_properties(hostile_unread_members PROPERTIES TIMEOUT 120 LABELS no-sanitizer)
