#include "lib/common/secret.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <cstdlib>

namespace metropolis::services {
namespace {

void Digest(std::string_view data, unsigned char out[32]) {
  unsigned int size = 0;
  // SHA-256 of a short string fails only when libcrypto is broken: not a state to go on in.
  if (EVP_Digest(data.data(), data.size(), out, &size, EVP_sha256(), nullptr) != 1 || size != 32) std::abort();
}

}  // namespace

bool SameSecret(std::string_view presented, std::string_view known) {
  unsigned char a[32], b[32];
  Digest(presented, a);
  Digest(known, b);
  const bool same = CRYPTO_memcmp(a, b, sizeof a) == 0;
  return same && !known.empty();
}

}  // namespace metropolis::services
