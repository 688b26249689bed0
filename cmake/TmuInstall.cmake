# `cmake --install BUILD --prefix P`: what another project's testbench or tool needs from tmu.
#   bin/tmu                                   the command-line tool
#   lib/libtmu_*.a, include/tmu/...           the reference models: tmu::engines (every engine, and
#                                             tmu::register_builtin_engines), or one engine alone:
#                                             tmu::engine_<name> for each engine of the list
#                                             (refmodel/engines/CMakeLists.txt) with the tmu_*
#                                             libraries it links; all with tmu::common
#   lib/libtmu_dpi.so                         the DPI-C scoreboard for any simulator (tmu::dpi)
#   share/tmu/sv/tmu_dpi.svh, tmu_dpi_pkg.sv  its `import "DPI-C"` declarations, to include or as a package
#   lib/cmake/tmu/                            find_package(tmu): imported targets, tmu_SV_DIR
#   lib/pkgconfig/tmu.pc, tmu-dpi.pc          pkg-config, relocatable (the prefix found from the file)
#   share/tmu/scripts/plot_audit.py           what `tmu audit --plots` runs (found from bin/tmu), and
#   share/tmu/scripts/plot_audit.d/<name>.py  each engine's plots (refmodel/engines/<name>/audit/plots.py)
#   share/tmu/examples/                       the example benches (tb/examples), built from the install
#   share/tmu/examples/python/                the Python package's examples (examples/python)
#   share/doc/tmu/                            the user documentation: README and the guides a user
#                                             of the install reads (the installed files name these)
# The version is the project's (project() in CMakeLists.txt).
include(CMakePackageConfigHelpers)

set(TMU_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/tmu)
set(TMU_SV_INSTALL_DIR ${CMAKE_INSTALL_DATADIR}/tmu/sv)

install(TARGETS tmu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md docs/scoreboard.md docs/cosim.md docs/program-format.md docs/vector-format.md docs/python.md
              docs/audit.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
# What the installed tmu runs itself (tmu audit --plots finds it relative to bin/tmu) and the
# benches a verification team starts from, so an install needs no source tree.
install(PROGRAMS scripts/plot_audit.py DESTINATION ${CMAKE_INSTALL_DATADIR}/tmu/scripts)
install(DIRECTORY tb/examples/ DESTINATION ${CMAKE_INSTALL_DATADIR}/tmu/examples)
install(PROGRAMS examples/python/golden_vs_approx.py DESTINATION ${CMAKE_INSTALL_DATADIR}/tmu/examples/python)
install(FILES examples/python/test_llk_matmul_golden.py DESTINATION ${CMAKE_INSTALL_DATADIR}/tmu/examples/python)
get_property(TMU_ENGINES GLOBAL PROPERTY TMU_ENGINES)
foreach(e ${TMU_ENGINES})
  get_property(engine_dir GLOBAL PROPERTY TMU_ENGINE_DIR_${e})
  if(EXISTS ${engine_dir}/audit/plots.py)
    install(FILES ${engine_dir}/audit/plots.py DESTINATION ${CMAKE_INSTALL_DATADIR}/tmu/scripts/plot_audit.d RENAME ${e}.py)
  endif()
endforeach()
# An engine's libraries: tmu_engine_<name> and the tmu_* libraries it links publicly (its model's),
# in link order; tmu_common comes last for all of them.
function(tmu_engine_link_closure library out)
  set(closure ${library})
  get_target_property(links ${library} INTERFACE_LINK_LIBRARIES)
  foreach(l ${links})
    if(TARGET ${l} AND l MATCHES "^tmu_" AND NOT l STREQUAL "tmu_common")
      tmu_engine_link_closure(${l} more)
      list(APPEND closure ${more})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES closure)
  set(${out} ${closure} PARENT_SCOPE)
endfunction()
set(TMU_ENGINE_LIBRARIES "")
foreach(e ${TMU_ENGINES})
  tmu_engine_link_closure(tmu_engine_${e} libraries)
  list(APPEND TMU_ENGINE_LIBRARIES ${libraries})
endforeach()
list(REMOVE_DUPLICATES TMU_ENGINE_LIBRARIES)
set(TMU_INSTALLED_LIBRARIES tmu_engines ${TMU_ENGINE_LIBRARIES} tmu_common)
foreach(t ${TMU_INSTALLED_LIBRARIES})
  string(REGEX REPLACE "^tmu_" "" short ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${short})
endforeach()
install(TARGETS ${TMU_INSTALLED_LIBRARIES} EXPORT tmuTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY refmodel/common/include/tmu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
foreach(e ${TMU_ENGINES})
  get_property(engine_dir GLOBAL PROPERTY TMU_ENGINE_DIR_${e})
  # An engine's llk/ headers (tmu_<name>_llk: its LLK sequences) build on the audit core, which is
  # not installed, so they are left out with it.
  if(EXISTS ${engine_dir}/include/tmu)
    install(DIRECTORY ${engine_dir}/include/tmu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} PATTERN llk EXCLUDE)
  endif()
endforeach()
set(TMU_HAVE_DPI OFF)
if(TARGET tmu_dpi_shared)
  set(TMU_HAVE_DPI ON)
  set_target_properties(tmu_dpi_shared PROPERTIES EXPORT_NAME dpi)
  install(TARGETS tmu_dpi_shared EXPORT tmuTargets LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(FILES tb/dpi/tmu_dpi.svh tb/dpi/tmu_dpi_pkg.sv DESTINATION ${TMU_SV_INSTALL_DIR})
endif()
install(EXPORT tmuTargets NAMESPACE tmu:: DESTINATION ${TMU_CMAKE_DIR})

# An engine's package.cmake, when it has one: what find_package(tmu) adds for it once the targets are
# imported (an alias, say), pasted into tmuConfig.cmake.
set(TMU_ENGINE_PACKAGE_CODE "")
foreach(e ${TMU_ENGINES})
  get_property(engine_dir GLOBAL PROPERTY TMU_ENGINE_DIR_${e})
  if(EXISTS ${engine_dir}/package.cmake)
    file(READ ${engine_dir}/package.cmake code)
    string(APPEND TMU_ENGINE_PACKAGE_CODE "${code}")
  endif()
endforeach()
configure_package_config_file(cmake/tmuConfig.cmake.in ${CMAKE_BINARY_DIR}/tmuConfig.cmake
                              INSTALL_DESTINATION ${TMU_CMAKE_DIR} PATH_VARS TMU_SV_INSTALL_DIR)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/tmuConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/tmuConfig.cmake ${CMAKE_BINARY_DIR}/tmuConfigVersion.cmake
        DESTINATION ${TMU_CMAKE_DIR})

# pkg-config: the model libraries with what they link; the DPI library alone (a simulator loads it).
# The libraries are static archives, so what they link comes with them in Libs: the libraries an
# engine links by file (MPFR and GMP, say) as -l flags; fmt, Nettle and GMP's C++ layer through
# Requires.
set(TMU_PC_LIBS "")
set(external "")
foreach(t ${TMU_INSTALLED_LIBRARIES})
  string(REGEX REPLACE "^tmu_" "" short ${t})
  string(APPEND TMU_PC_LIBS " -ltmu_${short}")
  get_target_property(links ${t} INTERFACE_LINK_LIBRARIES)
  foreach(l ${links})
    if(l MATCHES "^/.*/lib([^/]+)\\.(so|a)$")
      list(APPEND external "-l${CMAKE_MATCH_1}")
    endif()
  endforeach()
endforeach()
list(REMOVE_DUPLICATES external)
list(JOIN external " " external)
string(STRIP "${TMU_PC_LIBS} ${external}" TMU_PC_LIBS)
string(JOIN ", " TMU_PC_ENGINES ${TMU_ENGINES})
# ${pcfiledir} is <prefix>/<libdir>/pkgconfig: the way back up to the prefix.
file(RELATIVE_PATH TMU_PC_PREFIX_FROM_PCDIR "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
string(REGEX REPLACE "/$" "" TMU_PC_PREFIX_FROM_PCDIR "${TMU_PC_PREFIX_FROM_PCDIR}")
configure_file(cmake/tmu.pc.in ${CMAKE_BINARY_DIR}/tmu.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/tmu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(TMU_HAVE_DPI)
  configure_file(cmake/tmu-dpi.pc.in ${CMAKE_BINARY_DIR}/tmu-dpi.pc @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/tmu-dpi.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# The Python package (python/, docs/python.md), component "python": the extension module, the
# pure-Python modules, their stubs and py.typed in P/lib/python3/dist-packages/tmu, so
# `PYTHONPATH=P/lib/python3/dist-packages` imports it (with P = /usr that is where Debian's python3
# looks already; the install prints the line to use). -DTMU_PYTHON_SITE=ON installs into the
# interpreter's own platlib directory instead, whatever the prefix.
if(TMU_PYTHON_BUILT)
  if(TMU_PYTHON_SITE)
    execute_process(COMMAND ${TMU_PYTHON} -c "import sysconfig; print(sysconfig.get_path('platlib'), end='')"
                    OUTPUT_VARIABLE python_dir COMMAND_ERROR_IS_FATAL ANY)
  else()
    set(python_dir lib/python3/dist-packages)
  endif()
  install(TARGETS tmu_python LIBRARY DESTINATION ${python_dir}/tmu COMPONENT python)
  install(DIRECTORY python/tmu/ DESTINATION ${python_dir}/tmu COMPONENT python
          FILES_MATCHING PATTERN "*.py" PATTERN "*.pyi" PATTERN "py.typed")
  if(NOT TMU_PYTHON_SITE)
    install(CODE "message(STATUS \"Python package tmu: PYTHONPATH=\${CMAKE_INSTALL_PREFIX}/${python_dir} ${TMU_PYTHON} -c 'import tmu'\")"
            COMPONENT python)
  endif()
endif()
