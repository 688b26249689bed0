// The fuzz harnesses without libFuzzer: ctest's short tier (docs/reliability.md). Linked with a
// harness by the main compiler, it runs LLVMFuzzerTestOneInput on every corpus input given, then on
// --runs inputs mutated from them with a fixed, printed seed - bit flips, byte and line edits,
// splices, dictionary tokens (libFuzzer's dictionary format) and boundary numbers - so a run is the
// same on every machine and a failure replays from the seed. A crash, an abort (a harness finding)
// or an input running past --timeout saves the input and names the seed and run.
//
//   fuzz_NAME [--runs N] [--seed S] [--dict FILE] [--max-len N] [--timeout SECONDS] [--save DIR] PATH...
//
// PATHs are files or directories (read recursively); with --runs 0 the inputs are only replayed,
// which is how a saved input is reproduced.
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;
using Bytes = std::string;

struct Rng {  // splitmix64: tiny, seedable, the same everywhere
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n ? static_cast<size_t>(next() % n) : 0; }
};

// The input being run, for the signal handlers: what they write out must already be in memory.
const Bytes* g_current = nullptr;
char g_save_path[4096] = "";
char g_label[256] = "";

void write_all(int fd, const char* p, size_t n) {
  while (n) {
    const ssize_t w = write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

extern "C" void on_fatal(int sig) {
  const char* what = sig == SIGALRM ? "timeout" : "crash";
  write_all(2, "fuzz replay: ", 13);
  write_all(2, what, std::strlen(what));
  write_all(2, " on ", 4);
  write_all(2, g_label, std::strlen(g_label));
  if (g_current && g_save_path[0]) {
    const int fd = open(g_save_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      write_all(fd, g_current->data(), g_current->size());
      close(fd);
      write_all(2, "; input saved as ", 17);
      write_all(2, g_save_path, std::strlen(g_save_path));
    }
  }
  write_all(2, "\n", 1);
  signal(sig == SIGALRM ? SIGABRT : sig, SIG_DFL);
  raise(sig == SIGALRM ? SIGABRT : sig);
}

Bytes read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(f), {});
}

// libFuzzer's dictionary format: one "token" per line (name= before it optional), \\ \" \xNN escapes.
std::vector<Bytes> read_dictionary(const fs::path& p) {
  std::vector<Bytes> out;
  std::ifstream f(p);
  std::string line;
  while (std::getline(f, line)) {
    const size_t q = line.find('"');
    if (line.empty() || line[0] == '#' || q == std::string::npos) continue;
    Bytes tok;
    for (size_t i = q + 1; i < line.size() && line[i] != '"'; ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        ++i;
        if (line[i] == 'x' && i + 2 < line.size()) {
          tok += static_cast<char>(std::strtoul(line.substr(i + 1, 2).c_str(), nullptr, 16));
          i += 2;
          continue;
        }
      }
      tok += line[i];
    }
    if (!tok.empty()) out.push_back(tok);
  }
  return out;
}

const char* const kNumbers[] = {"0", "1", "-1", "7", "8", "15", "16", "31", "32", "63", "64", "255", "256",
                                "65535", "65536", "2147483647", "2147483648", "4294967295", "4294967296",
                                "18446744073709551615", "18446744073709551616", "99999999999999999999999",
                                "0x", "0x0", "0xffffffff", "0x8000000000000000", "-0", "1e400", "nan", "inf"};

void mutate_once(Bytes& b, const std::vector<Bytes>& corpus, const std::vector<Bytes>& dict, Rng& r) {
  const size_t pos = r.below(b.size() + 1);
  switch (r.below(10)) {
    case 0:
      if (!b.empty()) b[r.below(b.size())] ^= static_cast<char>(1u << r.below(8));
      break;
    case 1:
      if (!b.empty()) b[r.below(b.size())] = static_cast<char>(r.below(4) ? 32 + r.below(95) : r.below(256));
      break;
    case 2:
      if (!b.empty()) b.erase(r.below(b.size()), 1 + r.below(16));
      break;
    case 3:
      b.insert(pos, 1 + r.below(4), static_cast<char>(r.below(3) ? 32 + r.below(95) : r.below(256)));
      break;
    case 4:
      if (!dict.empty()) b.insert(pos, dict[r.below(dict.size())]);
      break;
    case 5: {  // a number at a place a number already is, else anywhere
      size_t at = pos;
      for (size_t k = 0; k < 8 && !b.empty(); ++k) {
        const size_t t = r.below(b.size());
        if (std::isdigit(static_cast<unsigned char>(b[t]))) { at = t; break; }
      }
      size_t end = at;
      while (end < b.size() && std::isalnum(static_cast<unsigned char>(b[end]))) ++end;
      b.replace(at, end - at, kNumbers[r.below(std::size(kNumbers))]);
      break;
    }
    case 6: {  // a line duplicated, dropped or swapped with the next
      if (b.empty()) break;
      const size_t s = b.rfind('\n', r.below(b.size()));
      const size_t start = s == Bytes::npos ? 0 : s + 1;
      size_t e = b.find('\n', start);
      e = e == Bytes::npos ? b.size() : e + 1;
      const Bytes line = b.substr(start, e - start);
      const size_t how = r.below(3);
      if (how == 0) b.insert(start, line);
      if (how == 1) b.erase(start, e - start);
      if (how == 2 && e < b.size()) {
        size_t e2 = b.find('\n', e);
        e2 = e2 == Bytes::npos ? b.size() : e2 + 1;
        const Bytes next = b.substr(e, e2 - e);
        b.replace(start, e2 - start, next + line);
      }
      break;
    }
    case 7: {  // a chunk of itself copied elsewhere
      if (b.empty()) break;
      const size_t from = r.below(b.size());
      b.insert(pos, b.substr(from, 1 + r.below(64)));
      break;
    }
    case 8: {  // splice: this input's head, another's tail
      const Bytes& o = corpus[r.below(corpus.size())];
      b = b.substr(0, pos) + o.substr(r.below(o.size() + 1));
      break;
    }
    default:
      if (!b.empty()) b.resize(r.below(b.size()));
  }
}

int usage() {
  std::fprintf(stderr, "usage: fuzz_NAME [--runs N] [--seed S] [--dict FILE] [--max-len N] [--timeout SECONDS] "
                       "[--save DIR] PATH...\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t runs = 1000, seed = 1;
  size_t max_len = 4096;
  unsigned timeout = 10;
  fs::path dict_path, save_dir = ".";
  std::vector<fs::path> paths;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--runs" && has_value) runs = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--seed" && has_value) seed = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--dict" && has_value) dict_path = argv[++i];
    else if (a == "--max-len" && has_value) max_len = std::strtoull(argv[++i], nullptr, 0);
    else if (a == "--timeout" && has_value) timeout = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 0));
    else if (a == "--save" && has_value) save_dir = argv[++i];
    else if (a.rfind("--", 0) == 0) return usage();
    else paths.emplace_back(a);
  }
  if (paths.empty()) return usage();

  std::vector<fs::path> files;
  for (const fs::path& p : paths) {
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else if (fs::is_regular_file(p)) {
      files.push_back(p);
    } else {
      std::fprintf(stderr, "fuzz replay: no such file or directory '%s'\n", p.c_str());
      return 2;
    }
  }
  std::sort(files.begin(), files.end());  // directory order differs between machines
  std::vector<Bytes> corpus;
  for (const fs::path& f : files) corpus.push_back(read_file(f).substr(0, max_len));
  if (corpus.empty()) corpus.emplace_back();
  const std::vector<Bytes> dict = dict_path.empty() ? std::vector<Bytes>{} : read_dictionary(dict_path);

  for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL, SIGALRM}) signal(sig, on_fatal);
  const std::string name = fs::path(argv[0]).filename().string();
  std::printf("fuzz replay %s: %zu corpus inputs, %zu dictionary tokens, %llu mutated runs, seed %llu\n", name.c_str(),
              corpus.size(), dict.size(), static_cast<unsigned long long>(runs), static_cast<unsigned long long>(seed));
  std::fflush(stdout);

  const auto start = std::chrono::steady_clock::now();
  auto run_one = [&](const Bytes& input) {
    g_current = &input;
    alarm(timeout);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    alarm(0);
    g_current = nullptr;
  };
  for (size_t i = 0; i < corpus.size(); ++i) {
    std::snprintf(g_label, sizeof g_label, "corpus input %s", i < files.size() ? files[i].c_str() : "(empty)");
    g_save_path[0] = 0;  // a corpus input is already a file
    run_one(corpus[i]);
  }
  Rng rng{seed};
  for (uint64_t k = 0; k < runs; ++k) {
    Bytes b = corpus[rng.below(corpus.size())];
    for (size_t m = 1 + rng.below(4); m; --m) mutate_once(b, corpus, dict, rng);
    if (b.size() > max_len) b.resize(max_len);
    std::snprintf(g_label, sizeof g_label, "mutated run %llu of seed %llu", static_cast<unsigned long long>(k),
                  static_cast<unsigned long long>(seed));
    std::snprintf(g_save_path, sizeof g_save_path, "%s/%s-seed%llu-run%llu", save_dir.c_str(), name.c_str(),
                  static_cast<unsigned long long>(seed), static_cast<unsigned long long>(k));
    run_one(b);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz replay %s: %llu executions, no findings, %.2f s\n", name.c_str(),
              static_cast<unsigned long long>(corpus.size() + runs), s);
  return 0;
}
