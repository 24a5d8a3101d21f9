# Hostile files through the real CLI: a finding or exit 2, bounded time, and (without
# sanitizers, whose shadow memory would dominate) peak RSS well under 1 GB.
if(PT2LINT_SANITIZE)
  set(_bad_input_max_rss_mb 0)
else()
  set(_bad_input_max_rss_mb 512)
endif()
add_test(NAME bad_input_cli
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/bad_input/check_bad_inputs.py
          $<TARGET_FILE:pt2lint> ${_bad_input_max_rss_mb})
