# The operator schema table (library pt2lint_op_table), generated from aten_schemas.txt.
#
# The generator links LibTorch and is a host tool: it is built once, plainly, as its own
# project (src/analysis/opschema/generator) through ExternalProject, never with this tree's
# sanitizer or fuzzer flags. A sanitizer tree, or any tree given PT2LINT_HOST_OP_TABLE_DIR,
# reuses an already generated table instead of building the generator at all:
#   PT2LINT_HOST_OP_TABLE_DIR  folder holding op_table_data.cc (e.g. build/opschema);
#   PT2LINT_HOST_BUILD_DIR     a plain build tree whose opschema/ holds one (the Makefile
#                              passes its build/ to the sanitizer tree);
#   otherwise, with PT2LINT_SANITIZE, <source>/build/opschema when it has one.
include(ExternalProject)

set(PT2LINT_HOST_OP_TABLE_DIR "" CACHE PATH
    "Folder with an already generated op_table_data.cc; skips building the LibTorch generator")

set(OPSCHEMA_SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}/src/analysis/opschema)
set(OPSCHEMA_BINARY_DIR ${CMAKE_BINARY_DIR}/opschema)
set(OPSCHEMA_SCHEMAS ${OPSCHEMA_SOURCE_DIR}/aten_schemas.txt)

set(_op_table_reuse_dir "")
if(PT2LINT_HOST_OP_TABLE_DIR)
  if(NOT EXISTS ${PT2LINT_HOST_OP_TABLE_DIR}/op_table_data.cc)
    message(FATAL_ERROR "PT2LINT_HOST_OP_TABLE_DIR=${PT2LINT_HOST_OP_TABLE_DIR} has no op_table_data.cc")
  endif()
  set(_op_table_reuse_dir ${PT2LINT_HOST_OP_TABLE_DIR})
elseif(PT2LINT_HOST_BUILD_DIR AND EXISTS ${PT2LINT_HOST_BUILD_DIR}/opschema/op_table_data.cc
       AND NOT CMAKE_BINARY_DIR STREQUAL PT2LINT_HOST_BUILD_DIR)
  set(_op_table_reuse_dir ${PT2LINT_HOST_BUILD_DIR}/opschema)
elseif(PT2LINT_SANITIZE AND EXISTS ${CMAKE_SOURCE_DIR}/build/opschema/op_table_data.cc
       AND NOT CMAKE_BINARY_DIR STREQUAL ${CMAKE_SOURCE_DIR}/build)
  set(_op_table_reuse_dir ${CMAKE_SOURCE_DIR}/build/opschema)
endif()

if(_op_table_reuse_dir)
  message(STATUS "pt2lint: reusing the generated op schema table in ${_op_table_reuse_dir}")
  set(OP_TABLE_DATA ${_op_table_reuse_dir}/op_table_data.cc)
  set(OP_TABLE_REJECTS ${_op_table_reuse_dir}/rejected_schemas.txt)
else()
  set(_generator ${OPSCHEMA_BINARY_DIR}/host/gen_op_table)
  ExternalProject_Add(op_table_generator
    SOURCE_DIR ${OPSCHEMA_SOURCE_DIR}/generator
    BINARY_DIR ${OPSCHEMA_BINARY_DIR}/host
    CMAKE_ARGS -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER}
    INSTALL_COMMAND ""
    BUILD_ALWAYS ON
    BUILD_BYPRODUCTS ${_generator})
  set(OP_TABLE_DATA ${OPSCHEMA_BINARY_DIR}/op_table_data.cc)
  set(OP_TABLE_REJECTS ${OPSCHEMA_BINARY_DIR}/rejected_schemas.txt)
  add_custom_command(
    OUTPUT ${OP_TABLE_DATA} ${OP_TABLE_REJECTS}
    COMMAND ${_generator} ${OPSCHEMA_SCHEMAS} ${OP_TABLE_DATA} ${OP_TABLE_REJECTS}
    DEPENDS op_table_generator ${_generator} ${OPSCHEMA_SCHEMAS}
    COMMENT "Generating the operator schema table from aten_schemas.txt")
endif()

add_library(pt2lint_op_table STATIC ${OP_TABLE_DATA} ${OPSCHEMA_SOURCE_DIR}/op_table.h)
target_include_directories(pt2lint_op_table PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src)
target_compile_features(pt2lint_op_table PUBLIC cxx_std_20)

# The bundled custom-op schema files (src/analysis/opschema/bundled/*.txt), embedded as text.
file(GLOB _bundled_schema_files CONFIGURE_DEPENDS ${OPSCHEMA_SOURCE_DIR}/bundled/*.txt)
set(BUNDLED_SCHEMAS_CC ${OPSCHEMA_BINARY_DIR}/bundled_schema_files.cc)
add_custom_command(OUTPUT ${BUNDLED_SCHEMAS_CC}
  COMMAND ${CMAKE_COMMAND} -DBUNDLED_DIR=${OPSCHEMA_SOURCE_DIR}/bundled -DOUTPUT=${BUNDLED_SCHEMAS_CC}
          -P ${OPSCHEMA_SOURCE_DIR}/embed_bundled_schemas.cmake
  DEPENDS ${_bundled_schema_files} ${OPSCHEMA_SOURCE_DIR}/embed_bundled_schemas.cmake
  COMMENT "Embedding the bundled op schema files")
target_sources(pt2lint_op_table PRIVATE ${BUNDLED_SCHEMAS_CC})
