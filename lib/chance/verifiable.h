// Verifiable chance (version 2): a game's dice, steals and draws come from a
// secret 256-bit seed; the game announces a commitment to the seed before its
// first chance node and the seed is revealed once the game (and every game that
// shares it) has finished, so that anybody can check every outcome afterwards
// and nobody could compute one in advance. docs/CHANCE.md is the specification
// a verifier in any language follows; the constants below are part of it.
//
//   seed       = HMAC-SHA-256(platform key, "metropolis/seed/v2" 0x00 identity)
//   commitment = SHA-256("metropolis/commitment/v2" 0x00 seed)
//   number k of stream `kind`
//              = first 8 bytes, big-endian, of
//                HMAC-SHA-256(seed, "metropolis/chance/v2" 0x00 kind k)
//                (kind one byte, k eight bytes big-endian)
//   u          = (number >> 11) * 2^-53, the State::SampleChance argument
//
// HMAC-SHA-256 is a pseudorandom function: without the seed, the numbers of a
// game tell nothing about each other, and without the platform key, the seed
// of one game tells nothing about any other's.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/chance/chance.h"

namespace metropolis::chance {

inline constexpr uint32_t kVerifiableChanceVersion = 2;
inline constexpr size_t kSeedBytes = 32;
using Seed = std::array<uint8_t, kSeedBytes>;
using Commitment = std::array<uint8_t, 32>;

// The seed of the games whose chance identity is `identity` (the game's id, or
// what a duplicate set's games share).
Seed DeriveSeed(std::string_view platform_key, std::string_view identity);
// 32 bytes from the operating system's random generator (a key, or a seed
// nobody needs to derive again).
Seed RandomSeed();
Commitment CommitTo(const Seed& seed);

// The k-th raw number of stream `kind` (see the top).
uint64_t ChanceNumber(const Seed& seed, ChanceKind kind, uint64_t index);
// Streams whose numbers are ChanceNumber(seed, ·, ·).
ChanceStreams VerifiableStreams(const Seed& seed);
// A 64-bit seed for something else a game draws from its seed (the built-in
// bots' choices): HMAC-SHA-256(seed, "metropolis/sub/v2" 0x00 label), first 8
// bytes big-endian. Not chance, so not part of what a verifier checks.
uint64_t SubSeed(const Seed& seed, std::string_view label);

// Raw bytes <-> lower-case hex. FromBytes/FromHex return false on a wrong
// length or a non-hex digit and leave *out alone.
std::string ToHex(const uint8_t* bytes, size_t n);
template <size_t N>
std::string ToHex(const std::array<uint8_t, N>& bytes) {
  return ToHex(bytes.data(), N);
}
// A proto's bytes field (a seed, a commitment) as hex.
inline std::string ToHex(std::string_view bytes) {
  return ToHex(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}
bool FromHex(std::string_view hex, Seed* out);
bool FromBytes(std::string_view bytes, Seed* out);
// A seed or a commitment (the same 32-byte array) as the bytes a proto holds.
inline std::string_view AsBytes(const Seed& seed) { return {reinterpret_cast<const char*>(seed.data()), seed.size()}; }

}  // namespace metropolis::chance
