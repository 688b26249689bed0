// make_stimulus and the test registry.
#include "stimulus.h"

#include <fmt/format.h>

#include "stim_factories.h"
#include "tmu/error.h"

namespace tmu::tb {

std::vector<std::string> directed_tests() { return directed_test_names(); }

std::vector<std::string> stimulus_tests() {
  std::vector<std::string> names = {"random"};
  for (const std::string& n : directed_test_names()) names.push_back(n);
  return names;
}

std::unique_ptr<Stimulus> make_stimulus(const std::string& test, Arch arch, uint64_t seed, uint64_t instructions) {
  if (test == "random") return make_random_stimulus(arch, seed, instructions);
  if (auto s = make_directed_stimulus(test, arch, seed)) return s;
  throw Error(ErrorKind::BadInput, fmt::format("no stimulus test named '{}' (known: random, {})", test,
                                               fmt::join(directed_test_names(), ", ")));
}

}  // namespace tmu::tb
