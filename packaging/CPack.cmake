# `cpack -G DEB` in a build directory makes the Debian packages (README "Installing the package"):
#   gigacheck       the programs (gigacheck, gigacheck-lab), and in a CUDA build the engine library;
#                   runs the CPU lab anywhere: its dependencies are Qt 6, QCustomPlot (Qt 6) and
#                   OpenBLAS, found by dpkg-shlibdeps from what the programs link.
#   gigacheck-cuda  (CUDA builds) the CUDA backend, lib/gigacheck/libgigacheck_cuda.so, loaded at run
#                   time when present (engine/src/core/cuda_module/README.md). It needs the NVIDIA
#                   driver and the CUDA runtime and cuBLAS of the toolkit it was built with, from
#                   NVIDIA's packages or a toolkit in /usr/local/cuda: recommended, not required, so
#                   that a toolkit installed without packages does not block the install.
set(CPACK_PACKAGE_NAME gigacheck)
set(CPACK_PACKAGE_VENDOR "Gigacheck Lab")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Lab bench for ABFT-checked GEMM under a device-memory cap")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Gigacheck Lab")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEB_COMPONENT_INSTALL ON)

# The gigacheck package. A build without CUDA has this one component only, and CPack then makes a
# single package from the generic CPACK_DEBIAN_PACKAGE_* settings: they are the lab's; the CUDA
# component overrides what differs.
set(CPACK_DEBIAN_LAB_PACKAGE_NAME gigacheck)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Lab bench for ABFT-checked GEMM under a device-memory cap
 The command line (gigacheck) and the GUI (gigacheck-lab). Runs everything on the CPU backend
 (OpenBLAS); the gigacheck-cuda package adds the CUDA backend.")
set(CPACK_COMPONENT_LAB_DESCRIPTION "${CPACK_DEBIAN_PACKAGE_DESCRIPTION}")
# dpkg-shlibdeps finds them all from what the programs link: Qt 6 (Core, Gui, Widgets, Svg: the SVG
# icon engine and image plugins are in libqt6svg6, xcb and offscreen in libqt6gui6), QCustomPlot's
# Qt 6 build and OpenBLAS (libopenblas0: FindBLAS links libopenblas.so.0 itself, not the
# libblas.so.3 alternative). packaging/test-package.sh checks that list and that no Qt 5 is in it.

if(GIGACHECK_HAVE_CUDA)
  set(CPACK_DEBIAN_LAB_PACKAGE_SUGGESTS "gigacheck-cuda")
  set(CPACK_DEBIAN_CUDA_PACKAGE_NAME gigacheck-cuda)
  # dpkg-shlibdeps cannot map libcudart / libcublas of a toolkit outside dpkg to packages.
  set(CPACK_DEBIAN_CUDA_PACKAGE_SHLIBDEPS OFF)
  set(CPACK_DEBIAN_CUDA_PACKAGE_SUGGESTS "")
  set(CPACK_DEBIAN_CUDA_PACKAGE_DEPENDS "gigacheck (= ${PROJECT_VERSION}), libc6, libstdc++6")
  set(_cuda_series "${CUDAToolkit_VERSION_MAJOR}-${CUDAToolkit_VERSION_MINOR}")
  set(CPACK_DEBIAN_CUDA_PACKAGE_RECOMMENDS
    "cuda-cudart-${_cuda_series} | libcudart${CUDAToolkit_VERSION_MAJOR}, libcublas-${_cuda_series} | libcublas${CUDAToolkit_VERSION_MAJOR}")
  set(CPACK_COMPONENT_CUDA_DESCRIPTION "Gigacheck Lab: the CUDA backend
 libgigacheck_cuda.so, which gigacheck and gigacheck-lab load at run time when it is present. It needs
 the NVIDIA driver and the CUDA ${CUDAToolkit_VERSION_MAJOR}.${CUDAToolkit_VERSION_MINOR} runtime and
 cuBLAS (NVIDIA's cuda-cudart and libcublas packages, or a toolkit in /usr/local/cuda). Without
 them the programs say why in `gigacheck devices` and run on the CPU.")
endif()

install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/gigacheck-lab.svg DESTINATION share/icons/hicolor/scalable/apps)
if(GIGACHECK_WITH_GUI)
  install(FILES ${CMAKE_CURRENT_LIST_DIR}/gigacheck-lab.desktop DESTINATION share/applications)
endif()
include(CPack)
