# The diagnosis pass and `pt2lint fix` (docs/fix.md).
# fix_diagnosis_goldens: one primary finding per root cause, with its repair as fix.edits
# (tests/golden/diagnosis/check_diagnosis.py); fix_corpus: every defective corpus program is
# repaired to exactly its clean source, or refused with a reason (tests/data/fix).
file(GLOB fix_diagnosis_goldens CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/golden/diagnosis/*.textproto)
add_test(NAME fix_diagnosis_goldens
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/golden/diagnosis/check_diagnosis.py
                 $<TARGET_FILE:pt2lint> ${fix_diagnosis_goldens})
set_tests_properties(fix_diagnosis_goldens PROPERTIES TIMEOUT 120)

add_test(NAME fix_corpus
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/fix/fix_acceptance.py
                 $<TARGET_FILE:pt2lint> ${PT2LINT_CORPUS_DIR} ${CMAKE_CURRENT_BINARY_DIR}/fix_corpus)
set_tests_properties(fix_corpus PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300 LABELS whole-corpus)

add_test(NAME fix_goldens_repaired
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/fix/fix_goldens.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_SOURCE_DIR}/golden/diagnosis
                 ${CMAKE_CURRENT_BINARY_DIR}/fix_goldens)
set_tests_properties(fix_goldens_repaired PROPERTIES TIMEOUT 120)

add_test(NAME fix_seedbugs
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/fix/fix_seedbugs.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_SOURCE_DIR}/data/device/seedbugs
                 ${CMAKE_CURRENT_BINARY_DIR}/fix_seedbugs)
set_tests_properties(fix_seedbugs PROPERTIES TIMEOUT 120)

# fix_passes: backend-style passes (data/fix/corrupt_passes.py) over real clean exports; every
# repair must be the clean program (under the rename it records), every refusal must say why,
# and each pass must do at least as well as docs/fix.md's table says (--expect).
set(_fix_pass_sources
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/seedbugs/hf_llama_clean.aten.pt2
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/customops/two_caches.aten.pt2
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/customops/ema_buffer.aten.pt2
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/customops/define_inplace.aten.pt2
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/customops/define_list_inplace.aten.pt2
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/subgraphs/print_effect.aten.pt2
    ${CMAKE_CURRENT_SOURCE_DIR}/data/device/subgraphs/dynamic_kv_cache.aten.pt2)
file(GLOB _fix_device_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/data/fix/device/clean/*.pt2)
add_test(NAME fix_passes
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/fix/fix_passes.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_BINARY_DIR}/fix_passes
                 ${_fix_pass_sources} ${_fix_device_sources})
set_tests_properties(fix_passes PROPERTIES TIMEOUT 300 LABELS whole-corpus)

# fix_repairs: issue 23's device set (data/device/repairs/make_repairs.py) on two of its real
# exports: an encoder-decoder cache (fresh `copy_` overwrites the dataflow cannot tie to their
# state) and BatchNorm in training; `fix` and `fix --against CLEAN` on every defect, each repair
# the clean program (or a named partial or erased refusal), none WRONG. The device judged all ten.
add_test(NAME fix_repairs
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/device/repairs/make_repairs.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_BINARY_DIR}/fix_repairs
                 --models encdec_cache,conv_bn_train --expect-min-repaired 38)
set_tests_properties(fix_repairs PROPERTIES TIMEOUT 300 LABELS whole-corpus)

# fix --dry-run refuses what a real run refuses: a repair whose staging file still has findings
# (a corpus program that also writes tensor constants) and one that breaks ORIGINAL's contract
# under --against are refused by the dry run too (issue 23).
add_test(NAME fix_dry_run_matches_real
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/fix/fix_dry_run.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_BINARY_DIR}/fix_dry_run
                 ${PT2LINT_CORPUS_DIR}/corrupt/hf_gemma_2l__input_spec_dropped.pt2
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/device/seedbugs/hf_llama__dropped_write_back.pt2
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/device/seedbugs/hf_llama__pairing_by_position.pt2)
set_tests_properties(fix_dry_run_matches_real PROPERTIES TIMEOUT 120)

# Issue 23's unseen programs, approximated: make_repairs.py's passes over 15 real PyTorch 2.11
# exports the repairs were not developed against (tests/data/device/repairs/held_out.py). Any
# written file that is not byte for byte its clean source fails it; so does repairing fewer.
add_test(NAME fix_held_out
         COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/data/device/repairs/held_out.py
                 $<TARGET_FILE:pt2lint> ${CMAKE_CURRENT_BINARY_DIR}/fix_held_out --expect-min-repaired 272)
set_tests_properties(fix_held_out PROPERTIES TIMEOUT 300 LABELS real-programs)
