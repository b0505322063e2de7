// What a caller may do, decided from its Principal in one place for every
// service: results (storing and rating completed games) come only from the game
// hosts' service token or an administrator; accounts and ladders are managed by
// administrators only; people's accounts are served to the gateway only; tokens
// are looked up by the services only; any valid token may read results.
#pragma once

#include <string_view>

#include "lib/auth/authenticator.h"

namespace metropolis::auth {

// The role the game hosts' service token is given in the services' flags.
inline constexpr std::string_view kGameHostRole = "gamehost";

// The role the gateway's service token is given (the Accounts service's
// --gateway-token): the only caller of the People service.
inline constexpr std::string_view kGatewayRole = "gateway";

inline bool MayWriteResults(const Principal& p) { return p.admin || (p.service && p.name == kGameHostRole); }

// What a call of the results' services (Replays, Ratings) needs of its caller.
enum class ResultsAccess {
  kRead,   // any valid token
  kWrite,  // MayWriteResults: storing or rating a completed game
};

// Matchmaker.RegisterHost: the game hosts' service token and nothing else. A
// registered address is sent CreateGame with the hosts' admin token and is
// listed to players, who send it their seat tokens: an administrator's API token
// (or anyone who stole one) must not be able to point either at its own server.
inline bool MayRegisterHost(const Principal& p) { return p.service && p.name == kGameHostRole; }

// Acting for a person named in the request (Matchmaker's friends' tables): the
// gateway's service token only, which has checked the person's session.
inline bool MayActForPeople(const Principal& p) { return p.service && p.name == kGatewayRole; }

// Accounts, tokens and ladders (the Accounts service): administrators only. A
// service token is never one: it lives in flags, where no revocation reaches it.
inline bool MayAdministerAccounts(const Principal& p) { return p.admin && !p.service; }

// People's passwords, sessions and held seats (the People service): the
// gateway's service token only, administrators included out: nobody else
// serves browsers.
inline bool MayServePeople(const Principal& p) { return p.service && p.name == kGatewayRole; }

// Accounts.LookupToken: the services, with a service token, and nobody else (an
// administrator's API token neither): it is how they check their own callers,
// and an API token has no business asking who holds another.
inline bool MayLookUpTokens(const Principal& p) { return p.service; }

// Accounts.ListLadders: administrators, and the services that run ladders (the
// matchmaker reads them with its service token).
inline bool MayReadLadders(const Principal& p) { return MayAdministerAccounts(p) || p.service; }

}  // namespace metropolis::auth
