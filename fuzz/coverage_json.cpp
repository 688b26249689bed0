// The co-simulation's coverage files (tb/cov/coverage.h), which `tmu_tb --merge-cov` reads when
// scripts/regress.py merges shards: JSON that is not a coverage file is refused with a tmu::Error;
// one that is reads back from what it writes to the same coverage, and merges with itself.
#include "cov/coverage.h"
#include "fuzz.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace tmu::fuzz;
  const nlohmann::json j = nlohmann::json::parse(data, data + size, nullptr, false);
  if (j.is_discarded()) return 0;  // not JSON: read_json refuses it before from_json
  tmu::tb::Coverage c;
  if (!accepts([&] { c = tmu::tb::Coverage::from_json(j); }, Refusal::ErrorOnly)) return 0;
  const nlohmann::json written = must([&] { return c.to_json(); }, "to_json threw");
  const tmu::tb::Coverage back = must([&] { return tmu::tb::Coverage::from_json(written); }, "from_json refused to_json");
  require(back.to_json() == written, "coverage JSON round trip", written.dump());
  must([&] { c.merge(back); return 0; }, "merge threw");
  return 0;
}
