// API tokens moved to lib/auth/token.h (every service hashes them); the accounts
// code and its callers keep these names.
#pragma once

#include "lib/auth/token.h"

namespace metropolis::accounts {

using auth::kTokenLength;
using auth::kTokenPrefix;
using auth::LooksLikeToken;
using auth::NewToken;
using auth::Sha256;
using auth::TokenFingerprint;

}  // namespace metropolis::accounts
