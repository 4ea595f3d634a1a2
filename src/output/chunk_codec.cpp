// References: [RFC1950] zlib stream format; [RFC1951] DEFLATE, §3.2.4 stored blocks;
// [Renyi1961] collision entropy.
#include "output/chunk_codec.h"

#include <libdeflate.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace uwsim::output {

static_assert(std::endian::native == std::endian::little,
              "result datasets are H5T_IEEE_F64LE: chunks are encoded from little-endian doubles");

namespace {

constexpr std::size_t kBytes = sizeof(double);      // planes in a shuffled chunk
constexpr std::size_t kMaxStoredBlock = 65535;       // LEN is 16 bits [RFC1951 §3.2.4]
constexpr double kSpreadCollisionEntropy = 7.5;      // bits a byte; 8 is uniform

// Whether a plane's bytes are so evenly spread that deflate can gain little on it: their
// collision entropy H2 = −log2 Σ_j p_j² (p_j the share of byte value j) is at least 7.5 bits.
// Huffman coding cannot go below the Shannon entropy H ≥ H2, so at most 1/16 of the plane;
// LZ77 matches could gain more only on repeated runs of such bytes, which the low mantissa
// bytes of computed values do not have (docs/benchmarks.md, "evening session", has the measured sizes).
// A plane of fewer than 2^7.5 ≈ 181 bytes never qualifies (Σ p_j² ≥ 1/n).
bool evenly_spread(const unsigned char* plane, std::size_t n) {
  std::uint32_t counts[4][256] = {};  // four tallies, so that equal neighbours do not wait on each other
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    ++counts[0][plane[i]];
    ++counts[1][plane[i + 1]];
    ++counts[2][plane[i + 2]];
    ++counts[3][plane[i + 3]];
  }
  for (; i < n; ++i) ++counts[0][plane[i]];
  std::uint64_t sum_of_squares = 0;
  for (int j = 0; j < 256; ++j) {
    const std::uint64_t c = std::uint64_t{counts[0][j]} + counts[1][j] + counts[2][j] + counts[3][j];
    sum_of_squares += c * c;
  }
  // Σ p² ≤ 2^−H2min  ⇔  Σ c² · 2^H2min ≤ n²
  const double n_squared = static_cast<double>(n) * static_cast<double>(n);
  return static_cast<double>(sum_of_squares) * std::exp2(kSpreadCollisionEntropy) <= n_squared;
}

// How many planes, from byte 0 (the mantissa's lowest) up, are evenly spread: those are
// stored as they are, the rest deflated. Computed values' low mantissa bytes are noise; their
// high bytes and exponents, and constant or slowly varying channels, compress.
std::size_t spread_planes(const unsigned char* shuffled, std::size_t count) {
  std::size_t k = 0;
  while (k < kBytes && evenly_spread(shuffled + k * count, count)) ++k;
  return k;
}

[[noreturn]] void deflate_failed(std::size_t bytes) {
  throw std::runtime_error("deflate failed on a chunk of " + std::to_string(bytes) + " bytes");
}

}  // namespace

ChunkCodec::ChunkCodec(int level) : compressor_(libdeflate_alloc_compressor(level)) {
  if (compressor_ == nullptr) throw std::runtime_error("cannot create a deflate compressor");
}

ChunkCodec::~ChunkCodec() { libdeflate_free_compressor(compressor_); }

std::size_t ChunkCodec::encoded_capacity(std::size_t count) const {
  // The larger of encode()'s two sizings: every byte stored (each of its blocks costs 5 bytes)
  // beside a raw deflate bound of the whole input, which exceeds that of any part of it and
  // the zlib bound (the same plus 6 bytes) alike.
  const std::size_t size = count * kBytes;
  const std::size_t blocks = (size + kMaxStoredBlock - 1) / kMaxStoredBlock;
  return 2 + size + 5 * blocks + libdeflate_deflate_compress_bound(compressor_, size) + 4 + 6;
}

void ChunkCodec::encode(const double* values, std::size_t count, std::vector<unsigned char>& out) {
  const std::size_t size = count * kBytes;
  shuffled_.resize(size);
  // Shuffle: plane k holds byte k of every value (H5Zshuffle.c's layout for element size 8).
  // Each value is read once, as its 64 bits (little-endian: byte k is bits 8k … 8k + 7).
  unsigned char* planes = shuffled_.data();
  for (std::size_t i = 0; i < count; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, values + i, kBytes);
    for (std::size_t k = 0; k < kBytes; ++k) planes[k * count + i] = static_cast<unsigned char>(bits >> (8 * k));
  }
  const unsigned char* in = shuffled_.data();
  const std::size_t stored = spread_planes(in, count) * count;
  if (stored == 0) {  // deflate throughout
    out.resize(libdeflate_zlib_compress_bound(compressor_, size));
    const std::size_t written = libdeflate_zlib_compress(compressor_, in, size, out.data(), out.size());
    if (written == 0) deflate_failed(size);
    out.resize(written);
    return;
  }
  // One zlib stream [RFC1950]: its header, the spread planes in stored blocks, the other
  // planes deflated (a raw DEFLATE stream that ends with the final block; a stored block ends
  // on a byte boundary, where that stream begins), and the Adler-32 of all the bytes.
  const std::size_t blocks = (stored + kMaxStoredBlock - 1) / kMaxStoredBlock;
  out.resize(2 + stored + 5 * blocks + libdeflate_deflate_compress_bound(compressor_, size - stored) + 4);
  unsigned char* o = out.data();
  *o++ = 0x78;  // CMF: deflate, 32 KiB window
  *o++ = 0x01;  // FLG: fastest; (0x78·256 + 0x01) is a multiple of 31
  for (std::size_t at = 0; at < stored;) {
    const auto length = static_cast<std::uint16_t>(std::min(kMaxStoredBlock, stored - at));
    const auto complement = static_cast<std::uint16_t>(~length);
    *o++ = at + length == size ? 1 : 0;  // BFINAL (the last block: every plane was spread), BTYPE 00
    *o++ = static_cast<unsigned char>(length & 0xFF);
    *o++ = static_cast<unsigned char>(length >> 8);
    *o++ = static_cast<unsigned char>(complement & 0xFF);
    *o++ = static_cast<unsigned char>(complement >> 8);
    std::memcpy(o, in + at, length);
    o += length;
    at += length;
  }
  if (stored < size) {
    const std::size_t room = static_cast<std::size_t>(out.data() + out.size() - o) - 4;
    const std::size_t written = libdeflate_deflate_compress(compressor_, in + stored, size - stored, o, room);
    if (written == 0) deflate_failed(size);
    o += written;
  }
  const std::uint32_t adler = libdeflate_adler32(1, in, size);
  for (int shift = 24; shift >= 0; shift -= 8) *o++ = static_cast<unsigned char>(adler >> shift);  // big-endian
  out.resize(static_cast<std::size_t>(o - out.data()));
}

}  // namespace uwsim::output
