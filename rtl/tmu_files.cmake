# tmu_rtl_files(DIR SOURCES_VAR PACKAGES_VAR): the RTL files that DIR/tmu.f lists, in its order
# (packages first), as paths in DIR - rtl/ or a copy of it - and the packages among them. tmu.f is
# the one list of RTL files; the co-simulation, the block tests and the lint read it through this.
function(tmu_rtl_files dir sources_var packages_var)
  file(STRINGS ${dir}/tmu.f lines)
  set(sources "")
  set(packages "")
  foreach(line ${lines})
    string(STRIP "${line}" line)
    if(line STREQUAL "" OR line MATCHES "^//")
      continue()
    endif()
    get_filename_component(name ${line} NAME)  # tmu.f names rtl/<file>
    list(APPEND sources ${dir}/${name})
    if(name MATCHES "_pkg\\.sv$")
      list(APPEND packages ${dir}/${name})
    endif()
  endforeach()
  set(${sources_var} ${sources} PARENT_SCOPE)
  set(${packages_var} ${packages} PARENT_SCOPE)
endfunction()
