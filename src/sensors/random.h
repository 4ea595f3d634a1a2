// Deterministic random numbers for sensor noise, written here so that the same seed gives the
// same numbers with every compiler and standard library (the algorithms behind
// std::normal_distribution and the std engines' seeding differ between libraries).
//
//   Seeding: SplitMix64 [Steele2014] expands the sensor's 64-bit seed into the 256-bit state,
//            as [Blackman2021] recommends (no all-zero state, nearby seeds far apart).
//   Engine:  xoshiro256** [Blackman2021] Sec. 5: period 2²⁵⁶ − 1, passes BigCrush.
//   Uniform: the top 53 bits of a draw times 2⁻⁵³: a double in [0, 1), every value exact.
//   Normal:  Marsaglia's polar method [Marsaglia1964]: (u, v) uniform in the unit disc
//            (s = u² + v², 0 < s < 1, by rejection), then u·√(−2 ln s / s) and v·√(−2 ln s / s)
//            are two independent standard normals; the second is kept for the next call.
//
// Bit-portability: everything is integer arithmetic and IEEE-754 +, ×, ÷, √ (correctly
// rounded everywhere) but std::log, the one libm call; glibc's log is correctly rounded in
// practice, so a given binary and libm reproduce a series bit for bit.
//
// References: [Steele2014] G. L. Steele, D. Lea, C. H. Flood, "Fast splittable pseudorandom
// number generators", OOPSLA 2014. [Blackman2021] D. Blackman, S. Vigna, "Scrambled linear
// pseudorandom number generators", ACM TOMS 47(4), 2021. [Marsaglia1964] G. Marsaglia,
// T. A. Bray, "A convenient method for generating normal variables", SIAM Review 6(3), 1964.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

namespace uwsim::sensors {

// One step of SplitMix64 on `state` (advanced by the golden-ratio increment).
inline std::uint64_t splitmix64(std::uint64_t& state) {
  state += 0x9E3779B97F4A7C15ULL;
  std::uint64_t z = state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class Random {
 public:
  explicit Random(std::uint64_t seed = 0) {
    std::uint64_t s = seed;
    for (std::uint64_t& word : state_) word = splitmix64(s);
  }

  // xoshiro256**: the next 64 random bits.
  std::uint64_t next() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Standard normal (mean 0, variance 1), Marsaglia's polar method.
  double normal() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u = 0.0, v = 0.0, s = 0.0;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * factor;
    has_spare_ = true;
    return u * factor;
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::array<std::uint64_t, 4> state_{};
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace uwsim::sensors
