#include "output/chunk_codec.h"

#include <libdeflate.h>

#include <bit>
#include <stdexcept>
#include <string>

namespace uwsim::output {

static_assert(std::endian::native == std::endian::little,
              "result datasets are H5T_IEEE_F64LE: chunks are encoded from little-endian doubles");

ChunkCodec::ChunkCodec(int level) : compressor_(libdeflate_alloc_compressor(level)) {
  if (compressor_ == nullptr) throw std::runtime_error("cannot create a deflate compressor");
}

ChunkCodec::~ChunkCodec() { libdeflate_free_compressor(compressor_); }

void ChunkCodec::encode(const double* values, std::size_t count, std::vector<unsigned char>& out) {
  constexpr std::size_t kBytes = sizeof(double);
  const std::size_t size = count * kBytes;
  shuffled_.resize(size);
  // Shuffle: plane k holds byte k of every value (H5Zshuffle.c's layout for element size 8).
  const auto* bytes = reinterpret_cast<const unsigned char*>(values);
  for (std::size_t k = 0; k < kBytes; ++k) {
    unsigned char* plane = shuffled_.data() + k * count;
    for (std::size_t i = 0; i < count; ++i) plane[i] = bytes[i * kBytes + k];
  }
  out.resize(libdeflate_zlib_compress_bound(compressor_, size));
  const std::size_t written = libdeflate_zlib_compress(compressor_, shuffled_.data(), size, out.data(), out.size());
  if (written == 0) throw std::runtime_error("deflate failed on a chunk of " + std::to_string(size) + " bytes");
  out.resize(written);
}

}  // namespace uwsim::output
