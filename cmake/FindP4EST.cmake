# FindP4EST: the p4est forest library and its libsc, as imported targets P4EST::P4EST and SC::SC.
# Debian's libp4est-dev installs headers and libraries but no CMake package configuration.
#   P4EST_FOUND, P4EST_VERSION, P4EST_INCLUDE_DIR, P4EST_LIBRARY, SC_INCLUDE_DIR, SC_LIBRARY
include(FindPackageHandleStandardArgs)

find_path(SC_INCLUDE_DIR NAMES sc.h sc_config.h PATH_SUFFIXES p4est)
find_library(SC_LIBRARY NAMES sc)
find_path(P4EST_INCLUDE_DIR NAMES p4est.h p8est.h p4est_config.h PATH_SUFFIXES p4est)
find_library(P4EST_LIBRARY NAMES p4est)

if(P4EST_INCLUDE_DIR AND EXISTS "${P4EST_INCLUDE_DIR}/p4est_config.h")
  file(STRINGS "${P4EST_INCLUDE_DIR}/p4est_config.h" _p4est_version_line
       REGEX "^#define P4EST_VERSION \"[^\"]*\"")
  string(REGEX REPLACE ".*\"([^\"]*)\".*" "\\1" P4EST_VERSION "${_p4est_version_line}")
  file(STRINGS "${P4EST_INCLUDE_DIR}/p4est_config.h" _p4est_mpi REGEX "^#define P4EST_ENABLE_MPI 1")
endif()

find_package_handle_standard_args(P4EST
  REQUIRED_VARS P4EST_LIBRARY P4EST_INCLUDE_DIR SC_LIBRARY SC_INCLUDE_DIR
  VERSION_VAR P4EST_VERSION)

if(P4EST_FOUND)
  # A p4est built with MPI needs the MPI headers and library wherever its headers are included.
  set(_p4est_mpi_target "")
  if(_p4est_mpi)
    find_package(MPI REQUIRED COMPONENTS C)
    set(_p4est_mpi_target MPI::MPI_C)
  endif()
  if(NOT TARGET SC::SC)
    add_library(SC::SC UNKNOWN IMPORTED)
    set_target_properties(SC::SC PROPERTIES
      IMPORTED_LOCATION "${SC_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${SC_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${_p4est_mpi_target}")
  endif()
  if(NOT TARGET P4EST::P4EST)
    add_library(P4EST::P4EST UNKNOWN IMPORTED)
    set_target_properties(P4EST::P4EST PROPERTIES
      IMPORTED_LOCATION "${P4EST_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${P4EST_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES SC::SC)
  endif()
endif()
mark_as_advanced(SC_INCLUDE_DIR SC_LIBRARY P4EST_INCLUDE_DIR P4EST_LIBRARY)
