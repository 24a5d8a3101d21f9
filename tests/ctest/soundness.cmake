# Issue 22 on programs PyTorch 2.11 exported on the device machine (tests/data/device/soundness):
# user Triton kernels (undeclared and declared writes, lower refusing), joint graphs and their
# defects, fp8 observers, one tensor in two written slots, diff TRAINING ATEN never exit 1.
add_test(NAME soundness_device_programs
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/soundness/check_soundness.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_SOURCE_DIR}/data/device/soundness
                 ${CMAKE_CURRENT_BINARY_DIR}/soundness)
set_tests_properties(soundness_device_programs PROPERTIES TIMEOUT 180 LABELS real-programs)
