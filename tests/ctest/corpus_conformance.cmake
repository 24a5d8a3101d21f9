# Corpus conformance (issues 2 and 3): the labelled corpus scored by its own evaluator, with
# exactly the command the issues give. Passes when every defective program gets an error
# (recall 131/131), no clean program does (clean-errors 0/17), nothing crashes, and at least
# 127 of the 131 are caught by a rule their label names. Skipped (exit 77) without a corpus.
#
# This file is both included by tests/CMakeLists.txt (to register the test) and run with
# `cmake -P` (to score the evaluator's last line).
if(CMAKE_SCRIPT_MODE_FILE)
  execute_process(
    COMMAND ${PYTHON} ${CORPUS}/eval_corpus.py ${PT2LINT} ${CORPUS} labels.jsonl extra_labels.jsonl
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
  if(NOT status EQUAL 0 OR NOT detected EQUAL total OR NOT total EQUAL 131 OR reason LESS 127
     OR NOT false_alarms EQUAL 0 OR NOT crashes EQUAL 0)
    message(FATAL_ERROR "corpus_conformance: want recall 131/131, reason >= 127, clean-errors 0, "
                        "crashes 0; got recall ${detected}/${total}, reason ${reason}, "
                        "clean-errors ${false_alarms}, crashes ${crashes} (exit ${status})")
  endif()
  return()
endif()

add_test(NAME corpus_conformance
  COMMAND sh -c "if [ ! -f \"$0/labels.jsonl\" ]; then echo \"corpus_conformance: skipped: no corpus at $0 (configure with -DPT2LINT_CORPUS_DIR=...)\"; exit 77; fi; exec \"$1\" -DPYTHON=\"$2\" -DCORPUS=\"$0\" -DPT2LINT=\"$3\" -P \"$4\""
          ${PT2LINT_CORPUS_DIR} ${CMAKE_COMMAND} ${Python3_EXECUTABLE} $<TARGET_FILE:pt2lint>
          ${CMAKE_CURRENT_LIST_FILE})
set_tests_properties(corpus_conformance PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 600 LABELS corpus)
