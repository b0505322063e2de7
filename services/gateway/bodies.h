// The JSON bodies of the play API's POST requests (play_api.h), read into what
// each endpoint needs before anything else happens. A body is a JSON object
// with no field but the endpoint's: a typo is an error, not ignored. Every
// refusal is a 400 naming the field; nothing here throws (tests/fuzz/gateway_body_fuzz.cc).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/matchmaker.pb.h"
#include "services/gateway/params.h"

namespace metropolis::gateway {

// POST bodies larger than this are refused (413) before they are read.
inline constexpr size_t kMaxBodyBytes = 16 * 1024;

// The built-in bots a practice game may seat, as the game hosts name them.
const std::vector<std::string>& PracticeStrengths();

// Sign up and sign in: {"name": string, "password": string}.
bool ReadCredentials(std::string_view body, std::string* name, std::string* password, ApiError* error);
// A practice game: {"bots": 2 or 3, "strength": one of PracticeStrengths()}.
bool ReadPractice(std::string_view body, int64_t* bots, std::string* strength, ApiError* error);
// Joining a ladder's queue: {"ladder": string}.
bool ReadQueueJoin(std::string_view body, std::string* ladder, ApiError* error);
// A seat's answer: {"step": 0..2^32-1} and exactly one of "code" (an action's
// code as a decimal string: JSON numbers lose precision past 2^53) and "text"
// (an action's text); the action is checked to name an action.
bool ReadAnswer(std::string_view body, v1::PlayAnswer* out, ApiError* error);
// A person's new bot: {"name": string}.
bool ReadBotCreate(std::string_view body, std::string* name, ApiError* error);
// A token for a person's bot: {"label": string} (may be empty) or no field.
bool ReadBotTokenIssue(std::string_view body, std::string* label, ApiError* error);
// A new password for the person signed in: {"old_password": string,
// "new_password": string}.
bool ReadPasswordChange(std::string_view body, std::string* old_password, std::string* new_password, ApiError* error);
// A friends' table's settings (tables.h): every field optional — "ruleset",
// "options", "ladder" (strings), "seats" (3 or 4), "bot" (one of
// PracticeStrengths()), "decision_ms" (5,000..600,000), "time_bank_ms" and
// "spectator_delay_ms" (0..3,600,000, the delay in whole minutes; the bank
// 300,000 when left out).
bool ReadTableSettings(std::string_view body, v1::TableSettings* out, ApiError* error);
// A rematch: {"round": the round whose game is over}.
bool ReadRematch(std::string_view body, uint32_t* round, ApiError* error);
// A POST that takes nothing (asking for a game's analysis): no body, or {}.
bool ReadNothing(std::string_view body, ApiError* error);

}  // namespace metropolis::gateway
