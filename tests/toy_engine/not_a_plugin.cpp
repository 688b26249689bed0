// A shared library without tmu_engine_plugin_v1: TMU_ENGINE_PLUGINS naming it is refused by name
// (plugin_cli.cmake).
extern "C" int tmu_toy_not_a_plugin() { return 0; }
