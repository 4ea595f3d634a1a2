// Encodes full chunks on a second thread, so that the integration does not wait for deflate
// (most of what a written sample costs, issue 19). Only the encoding moves: every HDF5 call
// stays on the caller's thread, in an order that does not depend on the worker's timing
// (hdf5_file.h), so the file's bytes do not either.
//
// Jobs are identified by slot, one per series: a slot holds at most one job, submitted with
// submit() and collected with wait(). The worker takes jobs in the order they were submitted;
// it starts at the first submit, so a writer that never fills a chunk never starts it (and if
// no thread can be had, submit() encodes on the caller's thread). Signals
// are blocked on the worker: the run's stop handlers (app/stop_signals.h) run on the main thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "output/chunk_codec.h"

namespace uwsim::output {

class ChunkEncoder {
 public:
  explicit ChunkEncoder(int level);
  ~ChunkEncoder();  // stops the worker after its current job and joins it; queued jobs are dropped
  ChunkEncoder(const ChunkEncoder&) = delete;
  ChunkEncoder& operator=(const ChunkEncoder&) = delete;

  // A new slot; its index. Allocates (not for the per-step path).
  std::size_t add_slot();

  // Queues the encoding of `count` doubles at `values`, which must stay untouched until
  // wait(slot) returns. The slot must be free (never submitted, or waited for since).
  // Does not allocate once the worker has started.
  void submit(std::size_t slot, const double* values, std::size_t count);

  // Blocks until the slot's job is done and returns its bytes, valid until the slot's next
  // submit. Called again without a submit in between, returns the same bytes. Rethrows the
  // encoder's exception if it failed.
  const std::vector<unsigned char>& wait(std::size_t slot);

 private:
  enum class State { idle, queued, done };
  struct Slot {
    const double* values = nullptr;
    std::size_t count = 0;
    State state = State::idle;
    std::vector<unsigned char> bytes;
    std::exception_ptr failure;
  };

  void start_worker();
  void encode(Slot& s);  // the job's bytes, or its failure
  void run();            // the worker's loop

  ChunkCodec codec_;  // the worker's
  std::mutex mutex_;
  std::condition_variable queued_, finished_;
  std::vector<std::unique_ptr<Slot>> slots_;  // stable addresses: the worker encodes unlocked
  std::vector<std::size_t> queue_;            // a ring of slot indices, as long as slots_
  std::size_t head_ = 0, size_ = 0;
  bool stopping_ = false;
  bool inline_ = false;  // no worker could be started: jobs are encoded in submit()
  std::thread worker_;
};

}  // namespace uwsim::output
