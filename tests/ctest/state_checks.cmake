# Issue 27's checks on real programs (tests/data/device/state, exported and judged by PyTorch
# 2.11): shared state across programs, norm modes, effect tokens, initial values, cache ranges and
# a folded buffer read, each clean program quiet and each defect caught for its reason.
add_test(NAME state_checks_device
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/data/device/state/check_state.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device/state)
set_tests_properties(state_checks_device PROPERTIES TIMEOUT 300 LABELS real-programs)

# A cache written at the positions a user input tensor holds cannot be bounded: `check --verbose`
# says "undecidable" and names the tensor, and the run reports nothing (never "clean").
add_test(NAME cache_range_undecidable_verbose
  COMMAND $<TARGET_FILE:pt2lint> check --no-config --verbose
          ${CMAKE_SOURCE_DIR}/tests/golden/dataflow/cache-write-in-bounds/good_tensor_positions_undecidable.textproto)
set_tests_properties(cache_range_undecidable_verbose PROPERTIES
  PASS_REGULAR_EXPRESSION "buffer `k_cache` by node `index_copy_`[^\n]*undecidable: it is written at the positions held by tensor `pos`")

# More of issue 27's device programs (tests/data/device/state/more, export_more.py): effectful
# custom ops and aten._print inside invoke_subgraph (and passes forking or dropping a token in the
# subgraph), one read of a written buffer folded into a constant, a BatchNorm eps reset after a
# node inserted in front of every other (diff pairs nodes by op and module, not position).
add_test(NAME state_more_device
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/data/device/state/more/check_more.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device/state/more)
set_tests_properties(state_more_device PROPERTIES TIMEOUT 300 LABELS real-programs)
