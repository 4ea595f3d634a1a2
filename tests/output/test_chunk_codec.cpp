// ChunkCodec's streams decoded by zlib, which shares no code with libdeflate, and read block by
// block (RFC 1951) to see which planes went into stored blocks.
#include "output/chunk_codec.h"

#include <doctest/doctest.h>
#include <zlib.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

using uwsim::output::ChunkCodec;

namespace {

std::vector<unsigned char> encode(const std::vector<double>& values) {
  ChunkCodec codec(1);
  std::vector<unsigned char> bytes;
  codec.encode(values.data(), values.size(), bytes);
  return bytes;
}

// zlib's inflate of the stream (header, blocks and Adler-32 all checked), unshuffled.
std::vector<std::uint64_t> decode(const std::vector<unsigned char>& stream, std::size_t count) {
  std::vector<unsigned char> shuffled(count * 8);
  uLongf length = shuffled.size();
  REQUIRE(uncompress(shuffled.data(), &length, stream.data(), stream.size()) == Z_OK);
  REQUIRE(length == shuffled.size());
  std::vector<unsigned char> bytes(shuffled.size());
  for (std::size_t k = 0; k < 8; ++k)
    for (std::size_t i = 0; i < count; ++i) bytes[i * 8 + k] = shuffled[k * count + i];
  std::vector<std::uint64_t> values(count);
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// The values' bit patterns (random bits make NaNs, which no == would find equal).
std::vector<std::uint64_t> bits(const std::vector<double>& values) {
  std::vector<std::uint64_t> b(values.size());
  std::memcpy(b.data(), values.data(), values.size() * 8);
  return b;
}

// The bytes the stream holds in stored blocks before its first other block, and whether a
// stored block ends it (then it is nothing but stored blocks).
struct StoredPrefix {
  std::size_t bytes = 0;
  std::size_t blocks = 0;
  bool whole_stream = false;
};
StoredPrefix stored_prefix(const std::vector<unsigned char>& stream) {
  StoredPrefix p;
  std::size_t at = 2;  // after the zlib header; every stored block starts on a byte
  while ((stream.at(at) & 0x06) == 0) {  // BTYPE 00
    const bool final = (stream[at] & 1) != 0;
    const std::size_t length = stream.at(at + 1) | (stream.at(at + 2) << 8);
    const std::size_t complement = stream.at(at + 3) | (stream.at(at + 4) << 8);
    REQUIRE(length == (~complement & 0xFFFF));
    p.bytes += length;
    ++p.blocks;
    at += 5 + length;
    if (final) {
      p.whole_stream = true;
      CHECK(at + 4 == stream.size());  // then only the Adler-32
      break;
    }
  }
  return p;
}

// Doubles whose byte k, for k < random_bytes, is uniformly random and whose other bytes are
// those of 1.5: planes 0 … random_bytes−1 are spread, the rest constant.
std::vector<double> random_low_bytes(std::size_t count, int random_bytes, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::vector<double> values(count);
  std::uint64_t base;
  const double one_and_a_half = 1.5;
  std::memcpy(&base, &one_and_a_half, 8);
  const std::uint64_t mask = random_bytes >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * random_bytes)) - 1;
  for (double& v : values) {
    const std::uint64_t bits = (base & ~mask) | (random() & mask);
    std::memcpy(&v, &bits, 8);
  }
  return values;
}

}  // namespace

TEST_CASE("chunk_codec: a chunk without noise in its low bytes is deflated throughout and decodes exactly") {
  std::vector<double> values(1024 * 6);  // multiples of 1/1024: the low mantissa bytes are zero
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = 2.0 + static_cast<double>(i % 777) / 1024.0;
  const std::vector<unsigned char> stream = encode(values);
  CHECK(stored_prefix(stream).bytes == 0);
  CHECK(stream.size() < values.size() * 8 / 2);
  CHECK(decode(stream, values.size()) == bits(values));
}

TEST_CASE("chunk_codec: noise in the low bytes is stored, the rest deflated, and the chunk decodes exactly") {
  for (int random_bytes : {1, 3, 5, 7}) {
    CAPTURE(random_bytes);
    const std::vector<double> values = random_low_bytes(1024 * 3, random_bytes, 7 + random_bytes);
    const std::vector<unsigned char> stream = encode(values);
    const StoredPrefix p = stored_prefix(stream);
    CHECK(p.bytes == static_cast<std::size_t>(random_bytes) * values.size());
    CHECK_FALSE(p.whole_stream);
    CHECK(decode(stream, values.size()) == bits(values));
    // The constant planes shrink to almost nothing; the stored ones are as they were.
    CHECK(stream.size() < p.bytes + p.blocks * 5 + 200);
  }
}

TEST_CASE("chunk_codec: all-random doubles are stored blocks only, the last one final") {
  const std::vector<double> values = random_low_bytes(1024, 8, 3);
  const std::vector<unsigned char> stream = encode(values);
  const StoredPrefix p = stored_prefix(stream);
  CHECK(p.whole_stream);
  CHECK(p.bytes == values.size() * 8);
  CHECK(stream.size() == 2 + p.blocks * 5 + values.size() * 8 + 4);
  CHECK(decode(stream, values.size()) == bits(values));
}

TEST_CASE("chunk_codec: stored planes longer than a stored block take several") {
  const std::vector<double> values = random_low_bytes(16384, 5, 11);  // 80 KiB spread: two blocks
  const std::vector<unsigned char> stream = encode(values);
  const StoredPrefix p = stored_prefix(stream);
  CHECK(p.bytes == 5 * values.size());
  CHECK(p.blocks == 2);
  CHECK(decode(stream, values.size()) == bits(values));
}

TEST_CASE("chunk_codec: a plane is stored when its collision entropy is at least 7.5 bits") {
  // Byte 0 runs through m equally frequent values, so Σ p² = 1/m and H2 = log2 m; the other
  // bytes are constant. log2 181 = 7.4998, log2 182 = 7.5078.
  for (const auto& [distinct, stored] : {std::pair{181, false}, std::pair{182, true}, std::pair{256, true}}) {
    CAPTURE(distinct);
    std::vector<double> values(static_cast<std::size_t>(distinct) * 8);
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::uint64_t bits = 0x3FF8000000000000ull | (i % static_cast<std::size_t>(distinct));
      std::memcpy(&values[i], &bits, 8);
    }
    const std::vector<unsigned char> stream = encode(values);
    CHECK(stored_prefix(stream).bytes == (stored ? values.size() : 0));
    CHECK(decode(stream, values.size()) == bits(values));
  }
  // Too few values to tell: a plane under 2^7.5 bytes is deflated, however spread.
  std::vector<double> few(181);
  for (std::size_t i = 0; i < few.size(); ++i) {
    const std::uint64_t bits = 0x3FF8000000000000ull | i;
    std::memcpy(&few[i], &bits, 8);
  }
  CHECK(stored_prefix(encode(few)).bytes == 0);
  CHECK(decode(encode(few), few.size()) == bits(few));
}

TEST_CASE("chunk_codec: only the planes up to the first that is not spread are stored") {
  // Bytes 0 and 2 random, byte 1 constant: plane 0 is stored, plane 2 is deflated with plane 1.
  std::mt19937_64 random(5);
  std::vector<double> values(4096);
  for (double& v : values) {
    const std::uint64_t bits = 0x3FF8000000000000ull | (random() & 0xFF00FFull);
    std::memcpy(&v, &bits, 8);
  }
  const std::vector<unsigned char> stream = encode(values);
  CHECK(stored_prefix(stream).bytes == values.size());
  CHECK(decode(stream, values.size()) == bits(values));
}

TEST_CASE("chunk_codec: the same chunk gives the same bytes") {
  const std::vector<double> values = random_low_bytes(1024 * 6, 5, 2);
  ChunkCodec codec(1);
  std::vector<unsigned char> first, again;
  codec.encode(values.data(), values.size(), first);
  codec.encode(random_low_bytes(333, 8, 9).data(), 333, again);  // another chunk in between
  codec.encode(values.data(), values.size(), again);
  CHECK(first == again);
}
