# Corpus conformance: the labelled corpus scored by its own evaluator (eval_corpus.py, run
# exactly as below). corpus_conformance (all rules): every defective program gets an
# error (recall 131/131), no clean program does, nothing crashes, and at least 127 of the 131
# are caught by a rule their label names. corpus_conformance_core_rules (only the
# PT2LINT_CORE_RULES below: loading and structure, no dataflow): the same with --only-rules,
# recall 118/118. Skipped (exit 77) without a corpus.
#
# This file is both included by tests/CMakeLists.txt (to register the test) and run with
# `cmake -P` (to score the evaluator's last line).
if(CMAKE_SCRIPT_MODE_FILE)
  set(only_rules)
  if(ONLY_RULES)
    set(only_rules --only-rules ${ONLY_RULES})
  endif()
  execute_process(
    COMMAND ${PYTHON} ${CORPUS}/eval_corpus.py ${only_rules} ${PT2LINT} ${CORPUS} labels.jsonl
            extra_labels.jsonl
    RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE errors)
  message("${output}${errors}")
  if(NOT output MATCHES "recall ([0-9]+)/([0-9]+), reason ([0-9]+)/[0-9]+, clean-errors ([0-9]+)/[0-9]+, crashes ([0-9]+)")
    message(FATAL_ERROR "corpus_conformance: eval_corpus.py printed no score line (exit ${status})")
  endif()
  set(detected ${CMAKE_MATCH_1})
  set(total ${CMAKE_MATCH_2})
  set(reason ${CMAKE_MATCH_3})
  set(false_alarms ${CMAKE_MATCH_4})
  set(crashes ${CMAKE_MATCH_5})
  if(NOT status EQUAL 0 OR NOT detected EQUAL total OR NOT total EQUAL EXPECTED_TOTAL
     OR reason LESS MIN_REASON OR NOT false_alarms EQUAL 0 OR NOT crashes EQUAL 0)
    message(FATAL_ERROR "corpus_conformance: want recall ${EXPECTED_TOTAL}/${EXPECTED_TOTAL}, "
                        "reason >= ${MIN_REASON}, clean-errors 0, "
                        "crashes 0; got recall ${detected}/${total}, reason ${reason}, "
                        "clean-errors ${false_alarms}, crashes ${crashes} (exit ${status})")
  endif()
  return()
endif()

set(PT2LINT_CORE_RULES "malformed-program,unsafe-archive-member,unsupported-schema-version,\
input-specs-match-placeholders,output-specs-match-graph-outputs,mutations-before-user-outputs,\
mutation-target-resolves,one-mutation-per-buffer,state-dict-mismatch,value-defined-before-use,\
value-names-unique,value-has-metadata,output-arity-matches-call-spec")

function(add_corpus_conformance_test name only_rules expected_total min_reason)
  add_test(NAME ${name}
    COMMAND sh -c "if [ ! -f \"$0/labels.jsonl\" ]; then echo \"${name}: skipped: no corpus at $0 (configure with -DPT2LINT_CORPUS_DIR=...)\"; exit 77; fi; exec \"$1\" -DPYTHON=\"$2\" -DCORPUS=\"$0\" -DPT2LINT=\"$3\" -DONLY_RULES=\"$5\" -DEXPECTED_TOTAL=$6 -DMIN_REASON=$7 -P \"$4\""
            ${PT2LINT_CORPUS_DIR} ${CMAKE_COMMAND} ${Python3_EXECUTABLE} $<TARGET_FILE:pt2lint>
            ${CMAKE_CURRENT_FUNCTION_LIST_FILE} "${only_rules}" ${expected_total} ${min_reason})
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS "corpus;whole-corpus")
endfunction()

add_corpus_conformance_test(corpus_conformance "" 131 127)
add_corpus_conformance_test(corpus_conformance_core_rules "${PT2LINT_CORE_RULES}" 118 118)
