# `check --verbose` names the ops pt2lint has no schema for, which it treats conservatively.
add_test(NAME dataflow_verbose_lists_unknown_ops
  COMMAND $<TARGET_FILE:pt2lint> check --verbose
          ${CMAKE_SOURCE_DIR}/tests/golden/dataflow/unknown-ops/good_custom_op_writes_back.textproto)
set_tests_properties(dataflow_verbose_lists_unknown_ops PROPERTIES
  PASS_REGULAR_EXPRESSION "ops without a known schema[^\n]*torch\\.ops\\.mylib\\.update\\.default _operator\\.mul")
