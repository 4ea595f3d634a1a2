#include "output/chunk_codec.h"

#include <bit>
#include <stdexcept>
#include <string>

namespace uwsim::output {

static_assert(std::endian::native == std::endian::little,
              "result datasets are H5T_IEEE_F64LE: chunks are encoded from little-endian doubles");

ChunkCodec::ChunkCodec(int level) {
  // windowBits 15 and the default memory level: the zlib stream compress2() writes.
  if (deflateInit2(&stream_, level, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib deflateInit2 failed");
}

ChunkCodec::~ChunkCodec() { deflateEnd(&stream_); }

const std::vector<unsigned char>& ChunkCodec::encode(const double* values, std::size_t count) {
  constexpr std::size_t kBytes = sizeof(double);
  const std::size_t size = count * kBytes;
  shuffled_.resize(size);
  // Shuffle: plane k holds byte k of every value (H5Zshuffle.c's layout for element size 8).
  const auto* bytes = reinterpret_cast<const unsigned char*>(values);
  for (std::size_t k = 0; k < kBytes; ++k) {
    unsigned char* plane = shuffled_.data() + k * count;
    for (std::size_t i = 0; i < count; ++i) plane[i] = bytes[i * kBytes + k];
  }
  encoded_.resize(deflateBound(&stream_, static_cast<uLong>(size)));
  int status = deflateReset(&stream_);
  stream_.next_in = shuffled_.data();
  stream_.avail_in = static_cast<uInt>(size);
  stream_.next_out = encoded_.data();
  stream_.avail_out = static_cast<uInt>(encoded_.size());
  if (status == Z_OK) status = deflate(&stream_, Z_FINISH);
  if (status != Z_STREAM_END)
    throw std::runtime_error("zlib deflate failed with status " + std::to_string(status));
  encoded_.resize(encoded_.size() - stream_.avail_out);
  return encoded_;
}

}  // namespace uwsim::output
