// What a caller may do, decided from its Principal in one place for every
// service: results (storing and rating completed games) come only from the game
// hosts' service token or an administrator; any valid token may read.
#pragma once

#include <string_view>

#include "services/accounts/authenticator.h"

namespace metropolis::accounts {

// The role the game hosts' service token is given in the services' flags.
inline constexpr std::string_view kGameHostRole = "gamehost";

inline bool MayWriteResults(const Principal& p) { return p.admin || (p.service && p.name == kGameHostRole); }

}  // namespace metropolis::accounts
