// One chunk of a result dataset as HDF5's shuffle + deflate filters store it, made here so that
// the chunk can be written with H5Dwrite_chunk (hdf5_file.h says why): HDF5's shuffle filter
// with 8-byte elements (byte k of every value, for k = 0..7, one plane after the other), then a
// zlib stream (RFC 1950), which HDF5's deflate filter inflates. HDF5 decodes the result with its
// own filters; tests/output check that it reads back exactly.
#pragma once

#include <zlib.h>

#include <cstddef>
#include <vector>

namespace uwsim::output {

class ChunkCodec {
 public:
  explicit ChunkCodec(int level);  // deflate level
  ~ChunkCodec();
  ChunkCodec(const ChunkCodec&) = delete;
  ChunkCodec& operator=(const ChunkCodec&) = delete;

  // Encodes `count` doubles (little-endian, as the datasets' H5T_IEEE_F64LE). The bytes live
  // until the next call. Reuses its buffers and zlib state: no allocation once warm.
  // Throws std::runtime_error if zlib fails.
  const std::vector<unsigned char>& encode(const double* values, std::size_t count);

 private:
  z_stream stream_{};
  std::vector<unsigned char> shuffled_, encoded_;
};

}  // namespace uwsim::output
