#include "output/chunk_encoder.h"

#include <doctest/doctest.h>

#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

using uwsim::output::ChunkCodec;
using uwsim::output::ChunkEncoder;

namespace {

// A chunk's values, different for each `seed`, smooth enough to compress.
std::vector<double> chunk(int seed, std::size_t count = 1024 * 6) {
  std::vector<double> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = seed * 10.0 + static_cast<double>(i) * 1e-3 + 1.0 / 3.0;
  return values;
}

// The bytes the caller's own codec makes of `values`: what a slot must hand back.
std::vector<unsigned char> reference(const std::vector<double>& values) {
  ChunkCodec codec(1);
  std::vector<unsigned char> bytes;
  codec.encode(values.data(), values.size(), bytes);
  return bytes;
}

std::set<std::string> thread_ids() {
  std::set<std::string> ids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) ids.insert(entry.path().filename());
  return ids;
}

// The blocked-signal mask of a thread of this process, from /proc (SigBlk, hexadecimal).
std::uint64_t blocked_signals(const std::string& thread_id) {
  std::ifstream status("/proc/self/task/" + thread_id + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("SigBlk:", 0) == 0) return std::stoull(line.substr(7), nullptr, 16);
  FAIL("no SigBlk line for thread " << thread_id);
  return 0;
}

}  // namespace

TEST_CASE("chunk_encoder: each slot hands back its own chunk's encoding, whatever the order of the waits") {
  ChunkEncoder encoder(1);
  std::vector<std::vector<double>> chunks;
  std::vector<std::size_t> slots;
  for (int i = 0; i < 5; ++i) {
    chunks.push_back(chunk(i, 1024 * static_cast<std::size_t>(1 + i)));  // sizes differ too
    slots.push_back(encoder.add_slot());
  }
  for (int i = 0; i < 5; ++i) encoder.submit(slots[i], chunks[i].data(), chunks[i].size());
  for (int i = 4; i >= 0; --i) {
    CAPTURE(i);
    CHECK(encoder.wait(slots[i]) == reference(chunks[i]));
  }
  CHECK(encoder.wait(slots[2]) == reference(chunks[2]));  // again, without a submit: the same bytes
  // A slot is used again for the next chunk.
  const std::vector<double> next = chunk(17);
  encoder.submit(slots[2], next.data(), next.size());
  CHECK(encoder.wait(slots[2]) == reference(next));
  CHECK(reference(next) != reference(chunks[2]));
}

TEST_CASE("chunk_encoder: a slot added while jobs wait leaves them queued, and every job is done") {
  ChunkEncoder encoder(1);
  std::vector<std::vector<double>> chunks;
  std::vector<std::size_t> slots;
  for (int i = 0; i < 3; ++i) {
    chunks.push_back(chunk(i, 1024 * 200));  // large: the worker is still busy when the slot comes
    slots.push_back(encoder.add_slot());
    encoder.submit(slots.back(), chunks.back().data(), chunks.back().size());
  }
  chunks.push_back(chunk(3));
  slots.push_back(encoder.add_slot());
  encoder.submit(slots.back(), chunks.back().data(), chunks.back().size());
  for (int i = 0; i < 4; ++i) {
    CAPTURE(i);
    CHECK(encoder.wait(slots[i]) == reference(chunks[i]));
  }
}

TEST_CASE("chunk_encoder: misuse is refused: a wait with nothing submitted, a second submit while the first is queued") {
  ChunkEncoder encoder(1);
  const std::size_t busy = encoder.add_slot(), slot = encoder.add_slot();
  CHECK_THROWS_AS(encoder.wait(slot), std::logic_error);
  // A large job keeps the worker busy; the slot's job waits behind it, queued.
  const std::vector<double> large = chunk(1, 1024 * 4000), first = chunk(2), second = chunk(3);
  encoder.submit(busy, large.data(), large.size());
  encoder.submit(slot, first.data(), first.size());
  CHECK_THROWS_AS(encoder.submit(slot, second.data(), second.size()), std::logic_error);
  CHECK(encoder.wait(slot) == reference(first));  // the first job, untouched by the refused one
  CHECK(encoder.wait(busy) == reference(large));
}

TEST_CASE("chunk_encoder: its worker blocks the stop signals, so that their handlers run on the run's thread") {
  const std::set<std::string> before = thread_ids();
  ChunkEncoder encoder(1);
  const std::size_t slot = encoder.add_slot();
  const std::vector<double> values = chunk(2);
  encoder.submit(slot, values.data(), values.size());
  encoder.wait(slot);
  std::vector<std::string> started;
  for (const std::string& id : thread_ids())
    if (before.count(id) == 0) started.push_back(id);
  REQUIRE(started.size() == 1);
  const std::uint64_t mask = blocked_signals(started.front());
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) {
    CAPTURE(signal_number);
    CHECK((mask >> (signal_number - 1) & 1U) == 1U);
  }
  // The calling thread's own mask is left as it was.
  CHECK((blocked_signals(std::to_string(::gettid())) >> (SIGINT - 1) & 1U) == 0U);
}
