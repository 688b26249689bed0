// Internal to tb/stim: the constructors behind make_stimulus.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "stimulus.h"

namespace tmu::tb {

std::unique_ptr<Stimulus> make_random_stimulus(Arch arch, uint64_t seed, uint64_t instructions);
// nullptr for a name that is not a directed test.
std::unique_ptr<Stimulus> make_directed_stimulus(const std::string& test, Arch arch, uint64_t seed);
std::vector<std::string> directed_test_names();

}  // namespace tmu::tb
