#include "lib/auth/token.h"

#include <openssl/evp.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

#include "engine/hex.h"
#include "lib/common/secret.h"

namespace metropolis::auth {

std::string NewToken() { return std::string(kTokenPrefix) + services::RandomSecretHex(32); }

bool LooksLikeToken(std::string_view text) {
  if (text.size() != kTokenLength || !text.starts_with(kTokenPrefix)) return false;
  return IsLowerHex(text.substr(kTokenPrefix.size()));
}

std::string Sha256(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(data.data(), data.size(), digest, &size, EVP_sha256(), nullptr) != 1 || size != 32)
    throw std::runtime_error("SHA-256 failed in libcrypto");
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::string TokenFingerprint(std::string_view sha256) { return HexOf(sha256.substr(0, 4)); }

}  // namespace metropolis::auth
