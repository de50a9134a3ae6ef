# gonu_module(NAME target DIR folder SOURCES ... HEADERS ... DEPENDS module... LINKS target...)
# One folder, one library. Every quoted include of its files must name a module in DEPENDS (or
# the folder itself), checked by cmake/check_layers.cmake before the library compiles: an upward
# include fails the build. LINKS are the libraries it links; they should be the DEPENDS modules'.
function(gonu_module)
  cmake_parse_arguments(M "" "NAME;DIR;KIND" "SOURCES;HEADERS;DEPENDS;LINKS;PRIVATE_LINKS" ${ARGN})
  set(files)
  foreach(f IN LISTS M_SOURCES M_HEADERS)
    list(APPEND files "${CMAKE_CURRENT_SOURCE_DIR}/${f}")
  endforeach()
  if(NOT M_KIND)
    set(M_KIND STATIC)
  endif()
  if(M_KIND STREQUAL "EXECUTABLE")
    add_executable(${M_NAME} ${M_SOURCES} ${M_HEADERS})
  elseif(M_KIND STREQUAL "INTERFACE")
    add_library(${M_NAME} INTERFACE ${M_HEADERS})
  else()
    add_library(${M_NAME} ${M_KIND} ${M_SOURCES} ${M_HEADERS})
  endif()
  set(allowed ${M_DIR} ${M_DEPENDS})
  set(stamp "${CMAKE_CURRENT_BINARY_DIR}/${M_NAME}.layers")
  add_custom_command(OUTPUT "${stamp}"
    COMMAND ${CMAKE_COMMAND} "-DMODULE=${M_DIR}" "-DALLOWED=${allowed}" "-DFILES=${files}"
            "-DSTAMP=${stamp}" -P "${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake"
    DEPENDS ${files} "${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake"
    COMMENT "Checking what ${M_DIR}/ includes" VERBATIM)
  add_custom_target(${M_NAME}_layers DEPENDS "${stamp}")
  add_dependencies(${M_NAME} ${M_NAME}_layers)
  if(M_KIND STREQUAL "INTERFACE")
    target_link_libraries(${M_NAME} INTERFACE ${M_LINKS})
  else()
    target_link_libraries(${M_NAME} PUBLIC ${M_LINKS})
    target_link_libraries(${M_NAME} PRIVATE ${M_PRIVATE_LINKS})
  endif()
endfunction()
