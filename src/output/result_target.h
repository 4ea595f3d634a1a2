// Where a run's result file goes, and the rules that keep an earlier result safe (issue 12),
// on top of the rule every output follows (output_file.h: named, absent or regular, no input,
// locked through `<output>.lock`, which also guards the names below against other writers):
// - The lock is taken before anything is created, renamed or truncated; a second writer aimed
//   at the same output finds it locked and refuses before touching anything, naming the first.
// - The file is created (exclusively) as `<output>.partial.new` and renamed to
//   `<output>.partial` once its structure is on disk, so a `.partial` is always a file HDF5
//   opens; it is renamed onto `<output>` (atomically, in one folder) only when the run ends with
//   a complete file. Until then the previous result is untouched.
// - An output that is one of the run's input files (scenario, part, CSV), or that would put
//   one of the names above on one, is refused.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "output/output_file.h"

namespace uwsim::output {

class ResultTarget {
 public:
  // Checks `target` against `inputs` (paths of every file the run read), takes the lock and
  // records `command_line` in it. Throws OutputRefused.
  ResultTarget(const std::string& target, const std::vector<std::string>& inputs,
               const std::string& command_line);
  ~ResultTarget();  // removes the lock file, then releases the lock
  ResultTarget(const ResultTarget&) = delete;
  ResultTarget& operator=(const ResultTarget&) = delete;

  const std::string& target() const { return target_; }
  const std::string& partial() const { return partial_; }   // <output>.partial
  const std::string& creating() const { return creating_; } // <output>.partial.new
  bool locked() const { return locks_->locked(); }  // false where the file system has no locks
  // Why the output could not be locked (the file system has no locks), or "".
  const std::string& lock_warning() const { return lock_warning_; }
  // True if a `.partial` of an earlier run that never finished was there at the start.
  bool had_stale_partial() const { return stale_partial_; }

  // `.partial.new` → `.partial` (replacing an earlier run's), `.partial` → the target.
  // Throw OutputRefused naming the system's error.
  void publish_partial() const;
  void publish_result() const;
  // Removes `.partial.new` (a file that never got its structure); never throws.
  void discard_creating() const;

 private:
  std::string target_, partial_, creating_;
  std::unique_ptr<TargetLocks> locks_;
  bool stale_partial_ = false;
  std::string lock_warning_;
};

}  // namespace uwsim::output
