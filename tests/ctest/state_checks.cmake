# Issue 27's checks on real programs (tests/data/device/state, exported and judged by PyTorch
# 2.11): shared state across programs, norm modes, effect tokens, initial values, cache ranges and
# a folded buffer read, each clean program quiet and each defect caught for its reason.
add_test(NAME state_checks_device
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/data/device/state/check_state.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device/state)
set_tests_properties(state_checks_device PROPERTIES TIMEOUT 300)
