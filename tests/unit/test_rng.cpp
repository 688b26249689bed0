// tmu::Rng and tmu::derive_seed against values computed outside this code: SplitMix64's published
// outputs, FNV-1a's published test vectors, and a separate Python implementation of the bounded
// draws and of derive_seed (the one scripts/regress.py carries).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <set>
#include <string>

#include "tmu/rng.h"

namespace {

using tmu::Rng;

TEST(Rng, SplitMix64PublishedOutputs) {
  Rng a(1234567);
  for (uint64_t want : {6457827717110365317ull, 3203168211198807973ull, 9817491932198370423ull,
                        4593380528125082431ull, 16408922859458223821ull})
    EXPECT_EQ(a.next(), want);
  Rng zero(0);
  EXPECT_EQ(zero(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(zero(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(zero(), 0x06C45D188009454Full);
}

TEST(Rng, BoundedDrawsMatchAnIndependentImplementation) {
  Rng below(42);
  for (uint32_t want : {7u, 1u, 2u, 3u, 0u, 8u, 2u, 8u}) EXPECT_EQ(below.below(10), want);
  Rng bits(42);
  for (uint32_t want : {23u, 5u, 8u, 11u}) EXPECT_EQ(bits.bits(5), want);
  Rng between(7);
  for (int32_t want : {-1, -3, 3, 1, 0, -2, 0, -1}) EXPECT_EQ(between.between(-3, 3), want);
  // The widest span between() takes: hi - lo overflows int32, so it must be computed unsigned.
  Rng wide(7);
  for (int32_t want : {-473177628, -2075378473, 1721254016})
    EXPECT_EQ(wide.between(-2147483647, 2147483647), want);
}

TEST(Rng, BelowStaysInRangeAndCoversIt) {
  Rng rng(99);
  for (uint32_t n : {1u, 2u, 3u, 7u, 100u, 1000003u, 0xFFFFFFFFu})
    for (int i = 0; i < 10000; ++i) ASSERT_LT(rng.below(n), n) << "n = " << n;
  // Every value of a small range, in roughly equal numbers (the expected 10000 is ~100 sigma from
  // the bounds below, so this never fails by chance).
  std::array<unsigned, 10> counts{};
  for (int i = 0; i < 100000; ++i) ++counts[rng.below(10)];
  for (unsigned c : counts) {
    EXPECT_GT(c, 9000u);
    EXPECT_LT(c, 11000u);
  }
  std::set<int32_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(rng.between(-2, 2));
  EXPECT_EQ(seen, (std::set<int32_t>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(rng.bits(0), 0u);
}

TEST(Rng, ChanceIsAProbability) {
  Rng rng(5);
  unsigned hits = 0;
  for (int i = 0; i < 100000; ++i) hits += rng.chance(30, 100);
  EXPECT_GT(hits, 29000u);
  EXPECT_LT(hits, 31000u);
  for (int i = 0; i < 1000; ++i) {
    EXPECT_FALSE(rng.chance(0, 100));
    EXPECT_TRUE(rng.chance(100, 100));
  }
}

TEST(Rng, Fnv1aPublishedVectors) {
  static_assert(tmu::fnv1a("") == 0xCBF29CE484222325ull);
  EXPECT_EQ(tmu::fnv1a("a"), 0xAF63DC4C8601EC8Cull);
  EXPECT_EQ(tmu::fnv1a("foobar"), 0x85944171F73967E8ull);
}

TEST(Rng, DeriveSeedMatchesTheScriptsAndSeparatesStreams) {
  EXPECT_EQ(tmu::derive_seed(0, "stream"), 5722446581770254725ull);
  EXPECT_EQ(tmu::derive_seed(1, "stream"), 9686646736675779952ull);
  EXPECT_EQ(tmu::derive_seed(1, "late fills SrcA"), 6377052739468124751ull);
  EXPECT_EQ(tmu::derive_seed(20240601, "bh/mvmul.tmu"), 7430222450864955946ull);

  std::set<uint64_t> seeds;
  const std::array<std::string, 5> names = {"stream", "streaM", "late fills SrcA", "late fills SrcB", ""};
  for (uint64_t parent : {0ull, 1ull, 2ull, 3ull, 0x7FFFFFFFFFFFFFFFull})
    for (const std::string& name : names) seeds.insert(tmu::derive_seed(parent, name));
  EXPECT_EQ(seeds.size(), 25u);  // a different stream for every (parent, name)
  EXPECT_NE(tmu::derive_seed(tmu::derive_seed(1, "a"), "b"), tmu::derive_seed(1, "ab"));
  EXPECT_NE(tmu::derive_seed(tmu::derive_seed(1, "a"), "b"), tmu::derive_seed(tmu::derive_seed(1, "b"), "a"));
}

TEST(Rng, SameSeedSameSequence) {
  Rng a(tmu::derive_seed(8, "x")), b(tmu::derive_seed(8, "x"));
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(a(), b());
}

}  // namespace
