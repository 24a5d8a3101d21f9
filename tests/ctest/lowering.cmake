# Acceptance of the reference lowering and the contract diff (docs/reference-lowering.md),
# against the corpus.
# Each test is skipped (exit 77) when the corpus is absent.
foreach(mode pairs corrupt rename)
  add_test(NAME lowering_${mode}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/lowering/lowering_acceptance.py
                   $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${mode}
                   ${CMAKE_CURRENT_BINARY_DIR}/lowering_${mode})
  set_tests_properties(lowering_${mode} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)
endforeach()
