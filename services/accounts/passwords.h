// People's password hashes (proto/metropolis/v1/people.proto) with libsodium's
// crypto_pwhash_str: argon2id, a random salt, and its cost parameters inside
// the stored string, so stronger settings later still verify today's hashes. Each hash takes its memory limit (64 MiB
// at the interactive setting) for a fraction of a second: at most `concurrency` run at once, so a burst of sign-ins
// waits instead of exhausting memory.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <string_view>

namespace metropolis::accounts {

// Slow salted password hashes. Verify is false for a wrong password and a
// malformed hash. An interface so that tests can count verifications.
class PasswordHasher {
 public:
  virtual ~PasswordHasher() = default;
  virtual bool Hash(std::string_view password, std::string* out) = 0;
  virtual bool Verify(std::string_view password, const std::string& hash) = 0;
};

class SodiumPasswordHasher : public PasswordHasher {
 public:
  // False when libsodium cannot start (no randomness).
  static bool Init();
  // Starts libsodium (Init); throws std::runtime_error when it cannot.
  explicit SodiumPasswordHasher(int concurrency = 2);
  bool Hash(std::string_view password, std::string* out) override;
  bool Verify(std::string_view password, const std::string& hash) override;

 private:
  void Acquire();
  void Release();
  std::mutex mutex_;
  std::condition_variable cv_;
  int free_;
};

}  // namespace metropolis::accounts
