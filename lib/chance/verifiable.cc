#include "lib/chance/verifiable.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <cstring>
#include <stdexcept>

#include "engine/hex.h"

namespace metropolis::chance {
namespace {

// The domain tags: each use of HMAC or SHA-256 hashes its own tag first, so
// that no output of one use can be passed off as another's.
constexpr std::string_view kSeedTag = "metropolis/seed/v2";
constexpr std::string_view kCommitmentTag = "metropolis/commitment/v2";
constexpr std::string_view kChanceTag = "metropolis/chance/v2";
constexpr std::string_view kSubTag = "metropolis/sub/v2";

std::array<uint8_t, 32> Hmac(std::string_view key, std::string_view message) {
  std::array<uint8_t, 32> out{};
  unsigned int n = 0;
  if (!HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(message.data()),
            message.size(), out.data(), &n) ||
      n != out.size()) {
    throw std::runtime_error("HMAC-SHA-256 failed");
  }
  return out;
}

std::string Tagged(std::string_view tag, std::string_view rest) {
  std::string m(tag);
  m.push_back('\0');
  m.append(rest);
  return m;
}

uint64_t BigEndian64(const uint8_t* p) {
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) x = (x << 8) | p[i];
  return x;
}

}  // namespace

Seed DeriveSeed(std::string_view platform_key, std::string_view identity) {
  return Hmac(platform_key, Tagged(kSeedTag, identity));
}

Seed RandomSeed() {
  Seed s{};
  if (RAND_bytes(s.data(), int(s.size())) != 1) throw std::runtime_error("the random generator failed");
  return s;
}

Commitment CommitTo(const Seed& seed) {
  const std::string m = Tagged(kCommitmentTag, AsBytes(seed));
  Commitment out{};
  SHA256(reinterpret_cast<const unsigned char*>(m.data()), m.size(), out.data());
  return out;
}

uint64_t ChanceNumber(const Seed& seed, ChanceKind kind, uint64_t index) {
  char rest[9];
  rest[0] = char(kind);
  for (int i = 0; i < 8; ++i) rest[1 + i] = char(uint8_t(index >> (56 - 8 * i)));
  return BigEndian64(Hmac(AsBytes(seed), Tagged(kChanceTag, std::string_view(rest, sizeof rest))).data());
}

ChanceStreams VerifiableStreams(const Seed& seed) {
  return ChanceStreams([seed](ChanceKind kind, uint64_t index) { return ChanceNumber(seed, kind, index); });
}

uint64_t SubSeed(const Seed& seed, std::string_view label) {
  return BigEndian64(Hmac(AsBytes(seed), Tagged(kSubTag, label)).data());
}

std::string ToHex(const uint8_t* bytes, size_t n) { return HexOf(bytes, n); }

bool FromHex(std::string_view hex, Seed* out) {
  if (hex.size() != 2 * kSeedBytes) return false;
  Seed s{};
  for (size_t i = 0; i < hex.size(); ++i) {
    const char c = hex[i];
    int v = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (v < 0) return false;
    s[i / 2] = uint8_t(s[i / 2] << 4 | v);
  }
  *out = s;
  return true;
}

bool FromBytes(std::string_view bytes, Seed* out) {
  if (bytes.size() != kSeedBytes) return false;
  std::memcpy(out->data(), bytes.data(), kSeedBytes);
  return true;
}

}  // namespace metropolis::chance
