# The last mile for people at a terminal (issue 26), on real files from tests/data: one ctest per
# item of tests/terminal/last_mile.py (its docstring says what each checks).
foreach(case summary cascades baseline formats source subcommands private)
  add_test(NAME last_mile_${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/terminal/last_mile.py
            $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR} ${case})
  set_tests_properties(last_mile_${case} PROPERTIES TIMEOUT 180)
endforeach()
# reduce under the sanitizers is one of the longest tests: it starts first (see properties.cmake).
set_tests_properties(last_mile_private PROPERTIES COST 100)

# mypy --strict on code that uses the Python API (Debian's python3-mypy; skipped without it).
add_test(NAME python_api_types
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/python_types/run_mypy.py
          ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/python_types_work)
set_tests_properties(python_api_types PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS no-sanitizer)
