# CLI checks of the files PyTorch writes and archives that lie (PT104, PT105, PT211; see
# docs/device-measurements.md): --select on a legacy file, a mixed folder with AOTInductor
# packages, and pt2lint's verdicts against PyTorch 2.11's on the measured damaged archives
# and nativert variants (tests/files/check_files_cli.py says what each checks).
add_test(NAME files_cli
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/files/check_files_cli.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR})
set_tests_properties(files_cli PROPERTIES TIMEOUT 120)
