# `check -` and `lower -o -` (the Python package pipes programs through them; docs/python.md).
add_test(NAME cli_stdin_stdout
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/cli/stdio_check.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR})
set_tests_properties(cli_stdin_stdout PROPERTIES TIMEOUT 120)
