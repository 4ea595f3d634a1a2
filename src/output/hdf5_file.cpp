#include "output/hdf5_file.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <filesystem>

#include "output/hdf5_writer.h"
#include "output/output_file.h"

namespace uwsim::output {

std::size_t chunk_rows(std::size_t expected_rows) {
  if (expected_rows == 0 || expected_rows >= detail::kChunkRows) return detail::kChunkRows;
  return std::max<std::size_t>(8, std::bit_ceil(expected_rows));
}

struct Hdf5File::Impl {
  std::string path;
  Hdf5FileOptions options;
  std::unique_ptr<detail::Writer> writer;
  bool canonical = true;

  detail::Writer& open_writer() {
    if (!writer->open()) writer->fail("the file is already closed");
    return *writer;
  }

  // A file that had timed commits, rewritten by replaying its calls without them, into a
  // temporary beside it created exclusively (output_file.h). A failure leaves it as it is.
  void rewrite() {
    const std::string temporary = temporary_name(path);
    Hdf5FileOptions exclusive = options;
    exclusive.exclusive = true;
    try {
      detail::Writer copy(temporary, exclusive, false);
      copy.replay(*writer);
      std::filesystem::rename(temporary, path);
    } catch (const std::exception&) {
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      canonical = false;
    }
  }
};

Hdf5File::Hdf5File(const std::string& path, Hdf5FileOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->path = path;
  impl_->options = options;
  impl_->writer = std::make_unique<detail::Writer>(path, options, true);
}

Hdf5File::~Hdf5File() {
  try {
    close();
  } catch (...) {
    // A destructor must not throw; callers wanting the error call close() themselves.
  }
}

Hdf5File::SeriesId Hdf5File::add_series(const std::string& path, int columns, const std::string& units,
                                        const std::string& description,
                                        const std::vector<std::string>& column_names,
                                        const std::vector<std::pair<std::string, std::string>>& attributes) {
  return impl_->open_writer().add_series({path, columns, units, description, column_names, attributes});
}

void Hdf5File::append(SeriesId series, const double* row) { impl_->writer->append(series, row); }

void Hdf5File::set_root_attribute(const std::string& name, const std::string& value) {
  impl_->open_writer().set_attribute(name, value);
}

void Hdf5File::limit_rows(std::size_t rows) { impl_->writer->limit_rows(rows); }

void Hdf5File::sync() { impl_->writer->sync(); }

void Hdf5File::flush() { impl_->open_writer().flush(); }

void Hdf5File::close() {
  detail::Writer& writer = *impl_->writer;
  if (!writer.open()) return;
  writer.close();
  if (writer.had_timed_commits()) impl_->rewrite();
}

void Hdf5File::renamed(const std::string& path) {
  impl_->path = path;
  impl_->writer->renamed(path);
}

bool Hdf5File::canonical() const { return impl_->canonical; }

}  // namespace uwsim::output
