# Contract goldens of `pt2lint diff` (rules PT401-PT414): one ctest per folder under
# tests/golden/contract/ (one folder per rule), each holding CASE.before.textproto +
# CASE.after.textproto pairs, run by tests/golden/run_diff_golden.py; its docstring describes
# the `# expect:` lines and the exit status it checks. The pairs are written by
# tests/golden/contract/make_contract_goldens.py. A new folder registers itself.
set(PT2LINT_CONTRACT_GOLDEN_ROOT ${CMAKE_CURRENT_SOURCE_DIR}/golden/contract)
file(GLOB_RECURSE contract_golden_halves CONFIGURE_DEPENDS
  ${PT2LINT_CONTRACT_GOLDEN_ROOT}/*.before.textproto ${PT2LINT_CONTRACT_GOLDEN_ROOT}/*.after.textproto)
set(contract_golden_dirs "")
foreach(half ${contract_golden_halves})
  get_filename_component(dir ${half} DIRECTORY)
  list(APPEND contract_golden_dirs ${dir})
endforeach()
list(REMOVE_DUPLICATES contract_golden_dirs)
list(SORT contract_golden_dirs)

foreach(dir ${contract_golden_dirs})
  file(RELATIVE_PATH name ${CMAKE_CURRENT_SOURCE_DIR}/golden ${dir})
  add_test(NAME golden/${name}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/golden/run_diff_golden.py
                   $<TARGET_FILE:pt2lint> ${dir})
  set_tests_properties(golden/${name} PROPERTIES LABELS golden TIMEOUT 120)
endforeach()
