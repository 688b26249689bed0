// Throughput of vector generation: generate_file() (state set-up, execution on the model, expected
// state) plus format_vector_file() (the text with its decoded comments), one thread, Blackhole,
// level 2 with a fixed seed. items_per_second counts element-cases (one output datum of one
// instruction, tmu::tensix::vectors::element_cases); bytes_per_second the text produced. SHA-256 and file
// writing are not included (BM_Sha256 measures the former).
#include <benchmark/benchmark.h>

#include "tmu/vector_file.h"
#include "tmu/tensix/vectors.h"

namespace {

namespace tv = tmu::tensix::vectors;

constexpr uint64_t kSeed = 1;

// family, format, phase, Dst bits, option (as FileSpec names them).
tv::FileSpec spec_for(const char* family, const char* format, int phase, int dst, const char* option) {
  tv::FileFilter filter;
  filter.families = {family};
  if (*format) filter.formats = {format};
  if (phase >= 0) filter.phases = {phase};
  if (dst) filter.dst_bits = {dst};
  for (const tv::FileSpec& s : tv::plan_files(filter))
    if (s.option == option) return s;
  return tv::plan_files(filter).front();
}

void run(benchmark::State& state, const tv::FileSpec& spec, unsigned level) {
  tv::GenerateOptions o;
  o.level = level;
  o.random_vectors = 64;
  o.seed = kSeed;
  uint64_t cases = 0, bytes = 0;
  for (auto _ : state) {
    const tv::VectorFile f = tv::generate_file(spec, o);
    const std::string text = tv::format_vector_file(f);
    for (const tv::Vector& v : f.vectors) cases += tv::element_cases(v);
    bytes += text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(cases));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.SetLabel(spec.relative_path() + (level == 1 ? " level 1" : " level 2, -n 64, seed 1"));
}

void BM_VectorsMvmulBf16(benchmark::State& s) { run(s, spec_for("mvmul", "bf16", 0, 16, ""), 2); }
void BM_VectorsMvmulFp32Dst(benchmark::State& s) { run(s, spec_for("mvmul", "tf32", 3, 32, ""), 2); }
void BM_VectorsElwmulBf16(benchmark::State& s) { run(s, spec_for("elwmul", "bf16", 1, 16, ""), 2); }
void BM_VectorsElwaddFp16Level1(benchmark::State& s) { run(s, spec_for("elwadd", "fp16", 0, 16, "bcastrow"), 1); }
void BM_VectorsGmpoolInt8(benchmark::State& s) { run(s, spec_for("gmpool", "int8", -1, 32, "argmax"), 2); }
void BM_VectorsGpr(benchmark::State& s) { run(s, spec_for("gpr", "", -1, 0, "adddmareg"), 2); }

BENCHMARK(BM_VectorsMvmulBf16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorsMvmulFp32Dst)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorsElwmulBf16)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorsElwaddFp16Level1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorsGmpoolInt8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_VectorsGpr)->Unit(benchmark::kMillisecond);

void BM_Sha256(benchmark::State& state) {
  const std::string data(1 << 20, 'x');
  for (auto _ : state) benchmark::DoNotOptimize(tmu::sha256_hex(data));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(data.size()));
}
BENCHMARK(BM_Sha256)->Unit(benchmark::kMillisecond);

}  // namespace
