# Every libFuzzer harness of tests/fuzz, linked with a plain driver (tests/fuzz/replay_main.cc)
# instead of libFuzzer, replays seeds and regression goldens: `make test` builds the harnesses
# and runs them on inputs the fuzzers found, under ASan+UBSan in the sanitizer tree. The fuzz
# build itself (`make fuzz`, clang) is separate.
set(PT2LINT_FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)
set(replay_inputs_zip_reader_fuzzer ${CMAKE_SOURCE_DIR}/tests/data/demo
    ${CMAKE_SOURCE_DIR}/tests/golden/files/suspicious-archive-layout
    ${CMAKE_SOURCE_DIR}/tests/golden/files/unsafe-archive-member)
set(replay_inputs_json_reader_fuzzer ${CMAKE_SOURCE_DIR}/tests/data/json
    ${CMAKE_SOURCE_DIR}/tests/golden/files/schema-8x)
set(replay_inputs_textproto_reader_fuzzer ${CMAKE_SOURCE_DIR}/tests/data/json
    ${CMAKE_SOURCE_DIR}/tests/golden/regressions)
set(replay_inputs_schema_parser_fuzzer ${CMAKE_SOURCE_DIR}/src/analysis/opschema/bundled)
set(replay_inputs_pipeline_fuzzer ${CMAKE_SOURCE_DIR}/tests/golden/regressions
    ${CMAKE_SOURCE_DIR}/tests/golden/structural ${CMAKE_SOURCE_DIR}/tests/golden/dataflow)
if(NOT PT2LINT_FUZZERS)
  file(GLOB harnesses CONFIGURE_DEPENDS ${PT2LINT_FUZZ_DIR}/*_fuzzer.cc)
  foreach(harness ${harnesses})
    get_filename_component(name ${harness} NAME_WE)
    add_executable(${name}_replay ${harness} ${PT2LINT_FUZZ_DIR}/replay_main.cc)
    target_link_libraries(${name}_replay PRIVATE pt2lint_library)
    target_include_directories(${name}_replay PRIVATE ${CMAKE_SOURCE_DIR})
    add_test(NAME fuzz_replay/${name} COMMAND ${name}_replay ${replay_inputs_${name}})
    set_tests_properties(fuzz_replay/${name} PROPERTIES TIMEOUT 300)
  endforeach()
endif()
