# Warnings for Tessera's own targets (not for third-party headers, which come in as SYSTEM).
add_library(tessera_warnings INTERFACE)
target_compile_options(tessera_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion>
  $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --Werror=all-warnings>)
if(TESSERA_WARNINGS_AS_ERRORS)
  target_compile_options(tessera_warnings INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-Werror>
                                                    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Werror>)
endif()

# What compiling Tessera's headers needs, in Tessera's own build and in a user's (exported):
# C++20, and the floating-point flags. Host code vectorises sqrt and division only when they need
# not set errno; Tessera never reads it. No contraction into fused multiply-adds: a vectorised loop
# body and its scalar remainder would round differently, and mirror-image cells would no longer
# get bitwise mirror-image updates. The same for CUDA device code, whose runs keep that mirror
# symmetry too: contraction gained only 2-3% on the H100 (benchmarks/RESULTS.md). nvcc contracts
# by default; hipcc gets -ffp-contract=off with the C++ flags, .cu files being C++ sources there.
add_library(tessera_options INTERFACE)
target_compile_features(tessera_options INTERFACE cxx_std_20)
target_compile_options(tessera_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-fno-math-errno -ffp-contract=off>
  $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>)
add_library(Tessera::tessera_options ALIAS tessera_options)

# The libraries `cmake --install` installs (cmake/TesseraInstall.cmake), in the order made.
set_property(GLOBAL PROPERTY TESSERA_LIBRARIES tessera_options)

# One call per Tessera library: the repository root as include root (include/tessera once
# installed), tessera_options, warnings for its own sources only.
function(tessera_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  if(ARG_SOURCES)
    add_library(${name} STATIC ${ARG_SOURCES})
    target_link_libraries(${name} PUBLIC tessera_options ${ARG_DEPENDS}
                                  PRIVATE $<BUILD_INTERFACE:tessera_warnings>)
    target_include_directories(${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                              $<INSTALL_INTERFACE:include/tessera>)
  else()
    add_library(${name} INTERFACE)
    target_link_libraries(${name} INTERFACE tessera_options ${ARG_DEPENDS})
    target_include_directories(${name} INTERFACE $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                 $<INSTALL_INTERFACE:include/tessera>)
  endif()
  add_library(Tessera::${name} ALIAS ${name})
  set_property(GLOBAL APPEND PROPERTY TESSERA_LIBRARIES ${name})
endfunction()

# Device sources are .cu files. nvcc compiles them as CUDA; under HIP they are sources of the C++
# language (hipcc), switched to HIP because the build compiles every other source as plain C++.
function(tessera_device_sources)
  if(TESSERA_BACKEND STREQUAL "hip")
    set_source_files_properties(${ARGN} PROPERTIES LANGUAGE CXX COMPILE_OPTIONS -xhip)
  endif()
endfunction()
