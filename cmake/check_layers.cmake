# Fails when a file includes a header of a folder it may not depend on: the layering of the tree
# (core knows nothing of solver, solver nothing of tools, the checker nothing of the solver) is
# checked at every build, not only promised. Run as
#   cmake -DMODULE=solver/julgonu/dense -DALLOWED="core;util;solver/julgonu/state;solver/julgonu/dense" -DFILES="a.cpp;b.hpp"
#         -DSTAMP=path -P check_layers.cmake
# A quoted include "solver/G/Y/..." names module solver/G/Y when G is a game (julgonu, jungi): a
# room of that game's solver; "X/Y/..." names module X/Y when X is solver, core or tools and Y a
# folder of it (Jul-gonu's front door solver/julgonu/solve.hpp, solver/common and solver/container,
# which both games share, a game's rules, a room of the program: tools/julgonu, tools/jungi,
# tools/cli, ...), X for X's own files (core/error.hpp), else X. System includes (<...>) are not
# checked. A room of one game can include the other's only by naming it in DEPENDS, which no game's
# room does, in solver/ or tools/ (the tests layering_check_refuses_the_other_game and
# layering_check_refuses_the_other_games_tool_room check that the check refuses it), and the shared
# rooms name neither game (layering_check_keeps_the_games_out_of_the_container).
cmake_minimum_required(VERSION 3.25)
foreach(file IN LISTS FILES)
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"")
  foreach(line IN LISTS lines)
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\".*" "\\1" path "${line}")
    if(path MATCHES "^solver/(julgonu|jungi)/([^/]+)/")
      set(mod "solver/${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
    elseif(path MATCHES "^(solver|core|tools)/([^/]+)/")
      set(mod "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
    elseif(path MATCHES "^([^/]+)/")
      set(mod "${CMAKE_MATCH_1}")
    else()
      set(mod "")  # a header beside the file (none in this tree) or a generated one
    endif()
    if(NOT mod STREQUAL "" AND NOT mod IN_LIST ALLOWED)
      message(FATAL_ERROR "${file}: includes \"${path}\": ${MODULE}/ may depend only on: ${ALLOWED}")
    endif()
  endforeach()
endforeach()
if(STAMP)
  file(TOUCH "${STAMP}")
endif()
