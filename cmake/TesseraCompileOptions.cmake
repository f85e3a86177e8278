# Warnings for Tessera's own targets (not for third-party headers, which come in as SYSTEM).
add_library(tessera_warnings INTERFACE)
target_compile_options(tessera_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
if(TESSERA_WARNINGS_AS_ERRORS)
  target_compile_options(tessera_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                                    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Werror>)
endif()

# One call per Tessera library: the repository root as include root, warnings (C++20 comes from
# CMAKE_CXX_STANDARD and CMAKE_CUDA_STANDARD).
function(tessera_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  if(ARG_SOURCES)
    add_library(${name} STATIC ${ARG_SOURCES})
    target_link_libraries(${name} PUBLIC ${ARG_DEPENDS} PRIVATE tessera_warnings)
    target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  else()
    add_library(${name} INTERFACE)
    target_link_libraries(${name} INTERFACE ${ARG_DEPENDS})
    target_include_directories(${name} INTERFACE ${PROJECT_SOURCE_DIR})
  endif()
  add_library(Tessera::${name} ALIAS ${name})
endfunction()

# Device sources are .cu files. nvcc compiles them as CUDA; under HIP they are sources of the C++
# language (hipcc), switched to HIP because the build compiles every other source as plain C++.
function(tessera_device_sources)
  if(TESSERA_BACKEND STREQUAL "hip")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS -xhip)
  endif()
endfunction()
