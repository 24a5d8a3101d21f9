# Quiet defaults on the device-exported clean zoo: 0 errors, no warning but the aliased-state
# programs' aliased-state-written, and only true findings with every opt-in rule selected
# (tests/quiet/check_zoo.py; docs/quiet-defaults.md justifies each).
add_test(NAME quiet_defaults_zoo
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/tests/quiet/check_zoo.py
          $<TARGET_FILE:pt2lint> ${CMAKE_SOURCE_DIR}/tests/data/device/zoo
          ${CMAKE_SOURCE_DIR}/tests/quiet/data)
set_tests_properties(quiet_defaults_zoo PROPERTIES TIMEOUT 300)
