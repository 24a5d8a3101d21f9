# The configuration example shown in the README (pyproject.toml); the CI setups are in tests/ctest/ci.cmake.
add_test(NAME readme_examples
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/readme/readme_examples.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/README.md
          ${CMAKE_SOURCE_DIR}/tests/data/demo/kv_cache_clean.pt2
          ${CMAKE_SOURCE_DIR}/tests/data/demo/kv_cache_broken.pt2)
