// The accounts' structs and the messages of proto/metropolis/v1/accounts.proto,
// one into the other: the only place they meet.
#pragma once

#include "metropolis/v1/accounts.pb.h"
#include "services/accounts/ladder_store.h"
#include "services/accounts/store.h"

namespace metropolis::accounts {

void IdentityToProto(const Identity& in, v1::Identity* out);
void ApiTokenToProto(const TokenInfo& in, v1::ApiToken* out);
void LadderToProto(const LadderInfo& in, v1::Ladder* out);
// The fields set in `in`, and only those.
LadderUpdate LadderUpdateFromProto(const v1::LadderSettings& in);

}  // namespace metropolis::accounts
