# scripts/add_rule.py on a scratch copy: each phase touches only its promised files, IDs skip
# and refuse the catalogue's tombstones; the real catalogue passes rule_table.py --check.
add_test(NAME scaffolding_add_rule
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/scaffolding/check_add_rule.py ${PROJECT_SOURCE_DIR})
