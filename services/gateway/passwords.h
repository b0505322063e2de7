// Password hashes with libsodium's crypto_pwhash_str: argon2id, a random salt,
// and its cost parameters inside the stored string, so stronger settings later
// still verify today's hashes. Each hash takes its memory limit (64 MiB at
// the interactive setting) for a fraction of a second: at most `concurrency`
// run at once, so a burst of sign-ins waits instead of exhausting memory.
#pragma once

#include <condition_variable>
#include <mutex>

#include "services/gateway/people.h"

namespace metropolis::gateway {

class SodiumPasswordHasher : public PasswordHasher {
 public:
  // False when libsodium cannot start (no randomness).
  static bool Init();
  explicit SodiumPasswordHasher(int concurrency = 2) : free_(concurrency) {}
  bool Hash(std::string_view password, std::string* out) override;
  bool Verify(std::string_view password, const std::string& hash) override;

 private:
  void Acquire();
  void Release();
  std::mutex mutex_;
  std::condition_variable cv_;
  int free_;
};

}  // namespace metropolis::gateway
