# Joint programs PyTorch 2.11 exported on the device machine (tests/data/device/joint): the
# joint-graph contract (issue 22: check, contract and diff carry gradients, lower keeps them) and
# fix's gradient pairings (issue 23), against PyTorch's own verdicts in results.json.
add_test(NAME joint_device_programs
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/joint/check_joint.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_SOURCE_DIR}/data/device/joint
                 ${CMAKE_CURRENT_BINARY_DIR}/joint)
set_tests_properties(joint_device_programs PROPERTIES TIMEOUT 180 LABELS real-programs)
