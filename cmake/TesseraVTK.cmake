# The VTK that Tessera's writers and readers use, found in this order:
#  1. -DVTK_DIR=<directory with VTK's CMake config> where the user names one;
#  2. CMake's usual places: Debian's libvtk9-dev;
#  3. ParaView's own VTK (Debian's paraview-dev), for machines with ParaView installed: there
#     python3-paraview conflicts with python3-vtk9, which libvtk9-dev needs, so the two cannot be
#     installed together and ParaView's VTK is the one available.
# Configure prints which one it uses; where none is usable it says what to install on this machine.
# FiltersAMR, IOParallelXML, ParallelCore and ParallelMPI: the AMR output, written through VTK's
# parallel AMR writer on the run's MPI communicator.
set(_tessera_vtk_components CommonCore CommonDataModel CommonMisc IOCore IOXML IOXMLParser FiltersAMR
                            IOParallelXML ParallelCore ParallelMPI)

# A VTK_DIR with a config in it is the user's choice (or an earlier configure's): if it does not
# serve, say so rather than look elsewhere. A VTK_DIR whose config is gone (libvtk9-dev removed
# when ParaView was installed) is searched past, as CMake does.
set(_tessera_named_vtk_dir "")
if(VTK_DIR AND (EXISTS "${VTK_DIR}/vtk-config.cmake" OR EXISTS "${VTK_DIR}/VTKConfig.cmake"))
  set(_tessera_named_vtk_dir "${VTK_DIR}")
endif()
find_package(VTK 9 CONFIG QUIET COMPONENTS ${_tessera_vtk_components})
set(_tessera_vtk_origin "")
if(NOT VTK_FOUND AND _tessera_named_vtk_dir)
  message(FATAL_ERROR "Tessera: the VTK in VTK_DIR=${_tessera_named_vtk_dir} does not serve: it "
                      "needs version 9 and the modules ${_tessera_vtk_components}. Name another "
                      "with -DVTK_DIR=, or clear VTK_DIR to let configure search.")
endif()
if(NOT VTK_FOUND)
  file(GLOB _tessera_paraview_vtk_dirs LIST_DIRECTORIES true
       "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/paraview-*/vtk"
       "/usr/local/lib/cmake/paraview-*/vtk" "/usr/local/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/paraview-*/vtk")
  foreach(_dir IN LISTS _tessera_paraview_vtk_dirs)
    set(VTK_DIR "${_dir}" CACHE PATH "The directory of VTK's CMake config" FORCE)
    find_package(VTK 9 CONFIG QUIET COMPONENTS ${_tessera_vtk_components})
    if(VTK_FOUND)
      set(_tessera_vtk_origin " (ParaView's VTK)")
      break()
    endif()
  endforeach()
endif()

if(VTK_FOUND)
  message(STATUS "Tessera: VTK ${VTK_VERSION} from ${VTK_DIR}${_tessera_vtk_origin}")
else()
  file(GLOB _tessera_paraview_installs "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/paraview-*")
  find_program(_tessera_paraview_program NAMES paraview pvpython)
  if(_tessera_paraview_installs OR _tessera_paraview_program)
    set(_tessera_vtk_advice
        "ParaView is installed here, so Debian's libvtk9-dev cannot be (python3-paraview "
        "conflicts with python3-vtk9): install paraview-dev, whose VTK Tessera uses "
        "(tools/install-deps.sh does)")
  else()
    set(_tessera_vtk_advice "install libvtk9-dev (Debian 12; tools/install-deps.sh does)")
  endif()
  message(FATAL_ERROR "Tessera: no usable VTK 9 with the modules ${_tessera_vtk_components}. "
                      ${_tessera_vtk_advice} ", name another VTK with -DVTK_DIR=<dir of its "
                      "CMake config>, or build without output: -DTESSERA_ENABLE_VTK=OFF.")
endif()
