# `cmake --install`: Tessera's libraries and headers, the tessera program, and a package that
# find_package(Tessera) reads: its targets (Tessera::tessera_cli, the case runner;
# Tessera::tessera_drivers, Tessera::tessera_io, ...)
# carry C++20, the include path, the floating-point flags and the dependencies (found again by
# TesseraConfig.cmake, with the Find modules Debian's p4est and METIS need).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

get_property(_tessera_libraries GLOBAL PROPERTY TESSERA_LIBRARIES)
install(TARGETS ${_tessera_libraries} EXPORT TesseraTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS tessera RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(_dir engine patches amr physics numerics solvers drivers io)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${_dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
# The case runner's headers (tools/tessera/case_runner.hpp), where a program of its own includes
# them from.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/tessera
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/tessera/tools FILES_MATCHING PATTERN "*.hpp")

set(_tessera_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/Tessera)
install(EXPORT TesseraTargets NAMESPACE Tessera:: DESTINATION ${_tessera_cmake_dir})
set(TESSERA_VTK_COMPONENTS "")
if(TESSERA_ENABLE_VTK)
  set(TESSERA_VTK_COMPONENTS ${_tessera_vtk_components})
endif()
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/TesseraConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/TesseraConfig.cmake
                              INSTALL_DESTINATION ${_tessera_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/TesseraConfig.cmake
              ${PROJECT_BINARY_DIR}/TesseraConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindP4EST.cmake ${PROJECT_SOURCE_DIR}/cmake/FindMETIS.cmake
        DESTINATION ${_tessera_cmake_dir})
