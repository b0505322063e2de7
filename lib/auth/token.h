// API tokens: random secrets shown once to their owner and stored only as their
// SHA-256, so that a leaked table holds nothing anyone can sign in with.
#pragma once

#include <string>
#include <string_view>

namespace metropolis::auth {

inline constexpr std::string_view kTokenPrefix = "mtp_";
inline constexpr size_t kTokenLength = 4 + 64;  // the prefix and 32 bytes in hex

// "mtp_" and 32 bytes from getrandom(2) in lowercase hex. The prefix lets secret
// scanners and people recognise a Metropolis token. Throws std::system_error when
// the kernel gives no randomness (never a weaker token).
std::string NewToken();

// Whether `text` has NewToken's shape; anything else cannot be an API token, so
// it needs no database lookup.
bool LooksLikeToken(std::string_view text);

// The 32 raw bytes of SHA-256 (OpenSSL's EVP API). Throws std::runtime_error if
// libcrypto fails.
std::string Sha256(std::string_view data);

// What logs may say about a token: the first 8 hex characters of its SHA-256,
// enough to match a log line to a row and useless to sign in with.
std::string TokenFingerprint(std::string_view sha256);

}  // namespace metropolis::auth
