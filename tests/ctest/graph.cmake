# `pt2lint graph` (docs/graph.md): DOT goldens with their SVGs, and readable slices of the
# 9,000-node kv_nested_256l in under a second (skipped without ../shared/corpus).
add_test(NAME graph_golden
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/golden/graph/graph_golden.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR})
add_test(NAME graph_big_slices
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/golden/graph/big_slices.py
          $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/graph_work)
# Timed: not meaningful under the sanitizers.
set_tests_properties(graph_big_slices PROPERTIES SKIP_RETURN_CODE 77 LABELS no-sanitizer)

# Every program and finding of the device corpus (real PyTorch 2.11 exports) has a picture.
# ~300 processes: 10 s here, 130 s under the sanitizers, where html_report_device draws the
# same findings in one process instead.
add_test(NAME graph_device_pictures
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/golden/graph/device_pictures.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device)
set_tests_properties(graph_device_pictures PROPERTIES TIMEOUT 300 LABELS no-sanitizer)
