// One chunk of a result dataset as HDF5's shuffle + deflate filters store it, made here so that
// the chunk can be written with H5Dwrite_chunk (hdf5_file.h says why): HDF5's shuffle filter
// with 8-byte elements (byte k of every value, for k = 0..7, one plane after the other), then a
// zlib stream (RFC 1950), which HDF5's deflate filter inflates. HDF5 decodes the result with its
// own filters; tests/output check that it reads back exactly.
//
// The stream is made by libdeflate rather than zlib: the same format, but about twice as fast
// at level 1 on these chunks (compression was most of what a written sample cost, issue 19),
// and, like zlib, the same bytes for the same input. The planes from byte 0 up whose bytes are
// evenly spread (the low mantissa bytes of computed values: noise) go into stored blocks of
// that stream and only the rest through the compressor: half the time per byte on the USM's
// chunks, and a stream 1–2 % shorter, as libdeflate's own blocks cost more than stored ones on
// noise (chunk_codec.cpp says how "evenly spread" is decided; docs/benchmarks.md, "evening session").
#pragma once

#include <cstddef>
#include <vector>

struct libdeflate_compressor;

namespace uwsim::output {

class ChunkCodec {
 public:
  explicit ChunkCodec(int level);  // deflate level (1 fastest … 12)
  ~ChunkCodec();
  ChunkCodec(const ChunkCodec&) = delete;
  ChunkCodec& operator=(const ChunkCodec&) = delete;

  // Encodes `count` doubles (little-endian, as the datasets' H5T_IEEE_F64LE) into `out`.
  // Reuses its buffers, compressor and `out`'s capacity: no allocation once warm.
  // Throws std::runtime_error if the compressor fails.
  void encode(const double* values, std::size_t count, std::vector<unsigned char>& out);
  // The most bytes encode() of `count` doubles writes into `out` (and sizes it to before it
  // shrinks it): with that capacity reserved, encode() does not allocate for `out`.
  std::size_t encoded_capacity(std::size_t count) const;

 private:
  libdeflate_compressor* compressor_ = nullptr;
  std::vector<unsigned char> shuffled_;
};

}  // namespace uwsim::output
