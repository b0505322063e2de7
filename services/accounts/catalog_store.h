// The public reads of the accounts (accounts.proto's GetIdentity,
// SearchIdentities and ReadLadders): what the web shows anyone — identities by
// name and ladders with every season. Reads only.
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "services/accounts/store.h"

namespace metropolis::accounts {

struct SeasonInfo {
  int season = 0;
  int64_t starts_unix_ms = 0;
  int64_t ends_unix_ms = 0;  // 0 while open
};

class CatalogStore {
 public:
  virtual ~CatalogStore() = default;

  // Every season of every ladder (or of `only_ladder` when not empty), by
  // ladder id, oldest first.
  virtual grpc::Status Seasons(const std::string& only_ladder, std::map<std::string, std::vector<SeasonInfo>>* out) = 0;
  // By name as spelt, else regardless of case (names are unique regardless of
  // case). NOT_FOUND "player 'x' does not exist".
  virtual grpc::Status FindIdentity(const std::string& name, Identity* out) = 0;
  // Names starting with `prefix` (see NameSearchSpellings), by name, at most `limit`.
  virtual grpc::Status SearchIdentities(const std::string& prefix, int limit, std::vector<Identity>* out) = 0;
};

// A name prefix typed into a search box, in the spellings worth looking up in
// an index that compares exactly: as typed, all lower case, and capitalised.
// Names are unique regardless of case, so these find the usual spellings
// without a scan over every identity.
std::vector<std::string> NameSearchSpellings(std::string_view prefix);

}  // namespace metropolis::accounts
