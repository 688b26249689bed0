// The toy engine as an engine plugin (tmu/engine.h, TMU_ENGINE_PLUGINS): the entry point an
// installed tmu looks up in the library.
#include "toy_engine.h"

extern "C" tmu::Engine* tmu_engine_plugin_v1() { return tmu::toy::make_engine().release(); }
