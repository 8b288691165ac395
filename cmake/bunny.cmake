# The Stanford bunny (npm package `bunny`) as C arrays for src/bunny.c, generated at build time.
# The package comes from web/node_modules (the web app depends on it) or, failing that, is
# installed into the build folder. Without node/npm the library builds with an empty bunny.
find_program(WEFT_NODE NAMES node nodejs)
set(WEFT_BUNNY_PACKAGE "")
foreach(candidate ${CMAKE_SOURCE_DIR}/web/node_modules/bunny ${CMAKE_BINARY_DIR}/npm/node_modules/bunny)
  if(NOT WEFT_BUNNY_PACKAGE AND EXISTS ${candidate}/index.js)
    set(WEFT_BUNNY_PACKAGE ${candidate})
  endif()
endforeach()
if(NOT WEFT_BUNNY_PACKAGE)
  find_program(WEFT_NPM npm)
  if(WEFT_NPM)
    message(STATUS "bunny: npm install bunny@1.0.1 into ${CMAKE_BINARY_DIR}/npm")
    execute_process(COMMAND ${WEFT_NPM} install --no-save --no-audit --no-fund --prefix ${CMAKE_BINARY_DIR}/npm bunny@1.0.1
                    OUTPUT_QUIET ERROR_QUIET)
    if(EXISTS ${CMAKE_BINARY_DIR}/npm/node_modules/bunny/index.js)
      set(WEFT_BUNNY_PACKAGE ${CMAKE_BINARY_DIR}/npm/node_modules/bunny)
    endif()
  endif()
endif()
if(WEFT_NODE AND WEFT_BUNNY_PACKAGE)
  set(WEFT_BUNNY_HEADER ${CMAKE_BINARY_DIR}/generated/weft_bunny_data.h)
  add_custom_command(OUTPUT ${WEFT_BUNNY_HEADER}
                     COMMAND ${WEFT_NODE} ${CMAKE_SOURCE_DIR}/scripts/gen_bunny.js ${WEFT_BUNNY_PACKAGE} ${WEFT_BUNNY_HEADER}
                     DEPENDS ${CMAKE_SOURCE_DIR}/scripts/gen_bunny.js ${WEFT_BUNNY_PACKAGE}/index.js
                     COMMENT "Generating the Stanford bunny arrays")
  add_custom_target(weft_bunny_data DEPENDS ${WEFT_BUNNY_HEADER})
  add_dependencies(weft weft_bunny_data)
  target_include_directories(weft PRIVATE ${CMAKE_BINARY_DIR}/generated)
  set_source_files_properties(${CMAKE_SOURCE_DIR}/src/bunny.c PROPERTIES OBJECT_DEPENDS ${WEFT_BUNNY_HEADER})
else()
  message(WARNING "bunny: node or the npm package `bunny` is missing; the bunny scene will be unavailable")
endif()
