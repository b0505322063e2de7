// Comparing a presented secret (a bearer token) with a known one without the
// time taken telling an attacker how much of it was right.
#pragma once

#include <string_view>

namespace metropolis::services {

// Whether `presented` equals `known`, in time that depends on neither's content
// nor on where they differ: both are hashed (SHA-256) and the digests compared
// with CRYPTO_memcmp, so the length of `known` does not show either. An empty
// `known` matches nothing: an unset token must never let a call in.
bool SameSecret(std::string_view presented, std::string_view known);

}  // namespace metropolis::services
