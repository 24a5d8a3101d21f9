# Custom ops that write state (--op-schemas, PT310, PT414), on programs exported with
# PyTorch 2.11 on the device machine (tests/data/device/customops), with and without their
# --op-schemas file.
foreach(mode with-schemas without-schemas)
  add_test(NAME customops_${mode}
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/customops/check_customops.py
                   $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_SOURCE_DIR}/data/device/customops
                   ${CMAKE_CURRENT_BINARY_DIR}/customops_${mode} ${mode})
  set_tests_properties(customops_${mode} PROPERTIES TIMEOUT 120 LABELS real-programs)
endforeach()
