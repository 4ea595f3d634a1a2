#include "output/result_target.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace uwsim::output {

namespace fs = std::filesystem;

ResultTarget::ResultTarget(const std::string& target, const std::vector<std::string>& inputs,
                           const std::string& command_line)
    : target_(target), partial_(target + ".partial"), creating_(target + ".partial.new") {
  if (target_.empty()) throw OutputRefused("-o \"\": an empty name is no file; give a file name");
  require_absent_or_regular(target_, "the output " + target_);
  for (const std::string& ours : {partial_, creating_})
    require_absent_or_regular(ours, ours + " (which a run writes beside its output)");

  // Nothing of an input may be touched: the target, nor the files made beside it (the lock
  // files are checked by TargetLocks).
  const InputFiles read_files(inputs);
  for (const std::string* ours : {&target_, &partial_, &creating_})
    if (const auto input = read_files.input_at(*ours))
      throw OutputRefused("the output " + *ours + " is an input of this run (" + *input +
                          "); writing it would destroy it. Give another output with -o");

  locks_ = std::make_unique<TargetLocks>(target_, read_files, command_line);
  lock_warning_ = locks_->warning();
  std::error_code ec;
  stale_partial_ = fs::exists(partial_, ec);
  fs::remove(creating_, ec);  // an earlier run killed while creating its file
}

ResultTarget::~ResultTarget() = default;

void ResultTarget::publish_partial() const {
  if (std::rename(creating_.c_str(), partial_.c_str()) != 0)
    throw OutputRefused("cannot rename " + creating_ + " to " + partial_ + ": " + std::strerror(errno));
}

void ResultTarget::publish_result() const {
  if (std::rename(partial_.c_str(), target_.c_str()) != 0)
    throw OutputRefused("cannot rename " + partial_ + " to " + target_ + ": " + std::strerror(errno));
}

void ResultTarget::discard_creating() const {
  std::error_code ignored;
  fs::remove(creating_, ignored);
}

}  // namespace uwsim::output
