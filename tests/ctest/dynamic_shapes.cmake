# Real dynamic-shape programs (symbolic sizes, sym_int values): clean, consistent, lowerable.
add_test(NAME dynamic_shapes_real_programs
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/data/dynamic/check_dynamic.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/dynamic
          ${CMAKE_CURRENT_BINARY_DIR}/dynamic_shapes)
