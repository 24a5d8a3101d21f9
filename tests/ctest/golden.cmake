# Golden tests: one ctest per folder of golden files under tests/golden/ (for example
# golden/structural/mutation-target-resolves), run by tests/golden/run_golden.py; its
# docstring describes the `# expect:` lines. A new folder of goldens registers itself.
# golden/contract/ is left out: its textprotos are BEFORE/AFTER pairs of `pt2lint diff`, run by
# contract_golden.cmake.
set(PT2LINT_GOLDEN_ROOT ${CMAKE_CURRENT_SOURCE_DIR}/golden)
file(GLOB_RECURSE golden_candidates CONFIGURE_DEPENDS
  ${PT2LINT_GOLDEN_ROOT}/*.textproto ${PT2LINT_GOLDEN_ROOT}/*.expect)
list(FILTER golden_candidates EXCLUDE REGEX "/tests/golden/contract/")
list(SORT golden_candidates)

set(golden_dirs "")
foreach(candidate ${golden_candidates})
  # A sidecar X.expect makes X (any format) a golden file.
  string(REGEX REPLACE "\\.expect$" "" golden ${candidate})
  get_filename_component(dir ${golden} DIRECTORY)
  string(MAKE_C_IDENTIFIER "${dir}" dir_key)
  if(NOT DEFINED golden_files_${dir_key})
    list(APPEND golden_dirs ${dir})
  endif()
  list(APPEND golden_files_${dir_key} ${golden})
endforeach()

foreach(dir ${golden_dirs})
  string(MAKE_C_IDENTIFIER "${dir}" dir_key)
  list(REMOVE_DUPLICATES golden_files_${dir_key})
  file(RELATIVE_PATH name ${PT2LINT_GOLDEN_ROOT} ${dir})
  add_test(NAME golden/${name}
           COMMAND ${Python3_EXECUTABLE} ${PT2LINT_GOLDEN_ROOT}/run_golden.py
                   $<TARGET_FILE:pt2lint> ${golden_files_${dir_key}})
  set_tests_properties(golden/${name} PROPERTIES LABELS golden TIMEOUT 120)
endforeach()

# The runners' message pins (`# expect: ... {{TEXT}}`): a right pin of the message, a note or the
# fix passes; a wrong, spanning or unterminated pin fails with exit 1 and says why, in
# run_golden.py and run_diff_golden.py.
add_test(NAME golden_runner_pins
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/golden_pins/check_golden_pins.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties(golden_runner_pins PROPERTIES LABELS golden TIMEOUT 120)
