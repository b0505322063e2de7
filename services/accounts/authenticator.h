// The authenticator moved to lib/auth (every service checks tokens through it,
// over an AccountLookup); inside the Accounts service the lookup is the store
// (store.h). The accounts code and its callers keep these names.
#pragma once

#include "lib/auth/authenticator.h"
#include "lib/auth/roles.h"
#include "lib/auth/token_authenticator.h"

namespace metropolis::accounts {

using auth::Authenticator;
using auth::kGameHostRole;
using auth::kGatewayRole;
using auth::MayAdministerAccounts;
using auth::MayServePeople;
using auth::Principal;
using auth::TokenAuthenticator;

}  // namespace metropolis::accounts
