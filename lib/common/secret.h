// Secrets: making them, and comparing a presented one (a bearer token) with a
// known one without the time taken telling an attacker how much of it was right.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace metropolis::services {

// Whether `presented` equals `known`, in time that depends on neither's content
// nor on where they differ: both are hashed (SHA-256) and the digests compared
// with CRYPTO_memcmp, so the length of `known` does not show either. An empty
// `known` matches nothing: an unset token must never let a call in.
bool SameSecret(std::string_view presented, std::string_view known);

// `bytes` random bytes from the kernel (getrandom(2)) in lowercase hex: every
// token, secret and unguessable id of the project is made here. Throws
// std::system_error when the kernel gives no randomness, never a weaker secret.
std::string RandomSecretHex(size_t bytes);

}  // namespace metropolis::services
