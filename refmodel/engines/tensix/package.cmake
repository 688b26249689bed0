# tmu::refmodel, the Tensix model's earlier target name, stays an alias of tmu::tensix for one release.
if(NOT TARGET tmu::refmodel)
  add_library(tmu::refmodel INTERFACE IMPORTED)
  set_target_properties(tmu::refmodel PROPERTIES INTERFACE_LINK_LIBRARIES tmu::tensix)
endif()
