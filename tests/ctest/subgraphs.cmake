# State read and written through higher-order ops and views (docs/dataflow.md), on programs
# exported by PyTorch 2.11 (tests/data/device/subgraphs) and textproto programs PyTorch cannot
# save.
add_test(NAME subgraphs_real_programs
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/data/subgraphs/check_subgraphs.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device/subgraphs
          ${CMAKE_SOURCE_DIR}/tests/data/subgraphs/textproto
          ${CMAKE_CURRENT_BINARY_DIR}/subgraphs)
set_tests_properties(subgraphs_real_programs PROPERTIES TIMEOUT 120 LABELS real-programs)
