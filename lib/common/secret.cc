#include "lib/common/secret.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>
#include <vector>

#include "engine/hex.h"

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

std::string RandomSecretHex(size_t bytes) {
  // In chunks through a buffer on the stack: no allocation but the answer.
  std::string out;
  out.reserve(2 * bytes);
  uint8_t raw[64];
  while (bytes > 0) {
    const size_t want = bytes < sizeof raw ? bytes : sizeof raw;
    size_t filled = 0;
    while (filled < want) {
      const ssize_t n = ::getrandom(raw + filled, want - filled, 0);
      if (n < 0) {
        if (errno == EINTR) continue;
        throw std::system_error(errno, std::generic_category(), "getrandom");
      }
      filled += size_t(n);
    }
    AppendHex(&out, raw, want);
    bytes -= want;
  }
  return out;
}

}  // namespace metropolis::services
