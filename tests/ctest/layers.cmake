# The layer check (scripts/check_layers.py, which also runs on every build): it can fail, and
# src/ passes it against the graph CMakeLists.txt declares.
add_test(NAME layers_include_check
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/layers/check_layers_test.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR}/layer_graph.txt)
