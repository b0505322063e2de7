#include "services/accounts/passwords.h"

#include <sodium.h>

#include <stdexcept>

namespace metropolis::accounts {

bool SodiumPasswordHasher::Init() { return sodium_init() >= 0; }

SodiumPasswordHasher::SodiumPasswordHasher(int concurrency) : free_(concurrency) {
  if (!Init()) throw std::runtime_error("libsodium cannot start (no random source)");
}

void SodiumPasswordHasher::Acquire() {
  std::unique_lock lock(mutex_);
  cv_.wait(lock, [&] { return free_ > 0; });
  --free_;
}

void SodiumPasswordHasher::Release() {
  {
    std::lock_guard lock(mutex_);
    ++free_;
  }
  cv_.notify_one();
}

bool SodiumPasswordHasher::Hash(std::string_view password, std::string* out) {
  char hash[crypto_pwhash_STRBYTES];
  Acquire();
  const int rc = crypto_pwhash_str(hash, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                                   crypto_pwhash_MEMLIMIT_INTERACTIVE);
  Release();
  if (rc != 0) return false;
  *out = hash;
  return true;
}

bool SodiumPasswordHasher::Verify(std::string_view password, const std::string& hash) {
  if (hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
  Acquire();
  const int rc = crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size());
  Release();
  return rc == 0;
}

}  // namespace metropolis::accounts
