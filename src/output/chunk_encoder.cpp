#include "output/chunk_encoder.h"

#include <csignal>
#include <stdexcept>
#include <system_error>

#include <pthread.h>

namespace uwsim::output {

ChunkEncoder::ChunkEncoder(int level) : codec_(level) {}

ChunkEncoder::~ChunkEncoder() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  queued_.notify_one();
  if (worker_.joinable()) worker_.join();
}

std::size_t ChunkEncoder::add_slot() {
  const std::lock_guard lock(mutex_);
  // The ring grows with the slots; unrolled first, so that its queued indices stay in order.
  std::vector<std::size_t> queue(slots_.size() + 1);
  for (std::size_t i = 0; i < size_; ++i) queue[i] = queue_[(head_ + i) % queue_.size()];
  queue_ = std::move(queue);
  head_ = 0;
  slots_.push_back(std::make_unique<Slot>());
  return slots_.size() - 1;
}

void ChunkEncoder::submit(std::size_t slot, const double* values, std::size_t count) {
  if (!worker_.joinable() && !inline_) start_worker();
  {
    const std::lock_guard lock(mutex_);
    Slot& s = *slots_.at(slot);
    if (s.state == State::queued) throw std::logic_error("ChunkEncoder: a slot's job was submitted twice");
    s.values = values;
    s.count = count;
    s.state = State::queued;
    s.failure = nullptr;
    if (!inline_) {
      queue_[(head_ + size_) % queue_.size()] = slot;
      ++size_;
    }
  }
  if (inline_) {
    encode(*slots_[slot]);
    slots_[slot]->state = State::done;
    return;
  }
  queued_.notify_one();
}

void ChunkEncoder::start_worker() {
  // The worker inherits the creating thread's signal mask: all blocked while it is created.
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  try {
    worker_ = std::thread(&ChunkEncoder::run, this);
  } catch (const std::system_error&) {
    inline_ = true;  // no thread to be had (a process at its limit): encode on the caller's
  } catch (...) {
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);  // the stop signals must reach the run
    throw;
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

void ChunkEncoder::encode(Slot& s) {
  try {
    codec_.encode(s.values, s.count, s.bytes);
  } catch (...) {
    s.failure = std::current_exception();
  }
}

const std::vector<unsigned char>& ChunkEncoder::wait(std::size_t slot) {
  std::unique_lock lock(mutex_);
  Slot& s = *slots_.at(slot);
  if (s.state == State::idle) throw std::logic_error("ChunkEncoder: wait for a slot with nothing submitted");
  finished_.wait(lock, [&] { return s.state == State::done; });
  if (s.failure) std::rethrow_exception(s.failure);
  return s.bytes;
}

void ChunkEncoder::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    queued_.wait(lock, [&] { return stopping_ || size_ > 0; });
    if (stopping_) return;
    Slot& s = *slots_[queue_[head_]];
    head_ = (head_ + 1) % queue_.size();
    --size_;
    lock.unlock();
    encode(s);
    lock.lock();
    s.state = State::done;
    finished_.notify_all();
  }
}

}  // namespace uwsim::output
