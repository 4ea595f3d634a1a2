// Where a run's result file goes, and the rules that keep an earlier result safe (issue 12):
// - A run owns its output through `<output>.lock`, locked (flock) before anything is created,
//   renamed or truncated, and holding the owner's pid, host, start time and command line. A
//   second run aimed at the same output finds it locked and refuses before touching anything,
//   naming the first. The lock dies with its process; the file is removed at the end.
// - The file is created as `<output>.partial.new` and renamed to `<output>.partial` once its
//   structure is on disk, so a `.partial` is always a file HDF5 opens; it is renamed onto
//   `<output>` (atomically, in one folder) only when the run ends with a complete file. Until
//   then the previous result is untouched.
// - An output that is one of the run's input files (scenario, part, CSV), or that would put
//   one of the names above on one, is refused.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace uwsim::output {

// The output cannot be used: taken by another run, an input file, a folder, unwritable.
class OutputRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Throws OutputRefused, saying what `name` is, unless it is absent or a regular file: a rename
// onto a device, FIFO or link replaces it (`-o /dev/null` did), and writing through a link
// replaces a file the command line does not name. `what` begins the message ("the output x").
// Every command that writes a file by renaming onto it checks its target so.
void require_absent_or_regular(const std::string& name, const std::string& what);

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
  bool locked() const { return locked_; }  // false where the file system has no locks
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
  std::string target_, partial_, creating_, lock_path_;
  int lock_fd_ = -1;
  bool locked_ = false;
  bool stale_partial_ = false;
  std::string lock_warning_;
};

}  // namespace uwsim::output
