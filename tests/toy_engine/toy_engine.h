// A fourth engine that exists only in the unit tests, to prove that an engine is one directory and
// one registration line: "toy" is a four-lane unsigned 8-bit saturating adder. Its programs, vector
// files, audit table and scoreboard reach `tmu run`, `vectors`, `check`, `audit` and the DPI-style
// scoreboard calls through the registry alone (test_engine_toy.cpp).
#pragma once

#include <memory>

#include "tmu/engine.h"

namespace tmu::toy {

std::unique_ptr<Engine> make_engine();

}  // namespace tmu::toy
