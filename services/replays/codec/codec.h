// The replay codec: a game's action list in about a byte per action.
//
// The replays service stores a game as its configuration, the rules version and
// the stable action codes (engine/action.h); this is a compact form on top of
// them. Each step is coded as its position in what the engine offers at that
// step: a seat's action as its index in LegalActions(), a chance outcome as its
// index in ChanceOutcomes(), with a range coder (range_coder.h) and the
// frequencies of model.h: uniform over the legal actions, the true
// probabilities for chance (the dice cost their entropy, about 7 bits, rather
// than log2 216). Trade offers and counters are not listed by the engine: they
// take an escape symbol and then their cards (model.h).
//
// The indices mean something only under the rules version the game was played
// with (kRulesVersion: the order of legal actions is fixed within a version),
// so the caller stores that version beside the blob and keeps the stable codes
// as the authority; a blob is read back only under the same version.
//
// The blob:
//
//   byte 0        kFormatVersion
//   varint        the number of actions (LEB128, at most 10 bytes)
//   the rest      the range-coded steps; nothing when there are no actions
//
// Decoding replays the game with the engine, step by step, so a blob that was
// not written by EncodeActions fails with a precise error; it never reads out
// of bounds, and it stops after the header's count, which may not exceed the
// configuration's max_actions. Every truncation is refused, and the coder's
// closing bytes act as a 32-bit check of the rest, so a corrupt blob that
// still codes a legal game of the header's length is rare — but possible:
// this is compression, not integrity protection, which the store provides.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/state.h"

namespace metropolis::replays {

inline constexpr uint8_t kFormatVersion = 1;

// What a blob's bits were spent on: the ideal cost of each coded symbol,
// -log2(freq / total), summed. For measurements only; the coder itself uses
// integers.
struct CodecStats {
  uint64_t chance_actions = 0, decision_actions = 0, parameterised_actions = 0;
  double chance_bits = 0, decision_bits = 0;  // parameterised actions count as decisions
  uint64_t header_bytes = 0;
};

// Replays `actions` from the initial state of `config` and writes the blob to
// *bytes (replacing its contents). False with *error ("step 12: build_road
// e99: BLD-1: ...") for an invalid configuration or an action that is not
// legal at its step; *bytes is then unspecified. `stats` may be null. With
// `final_state`, it receives the state after the last action: encoding is a
// full, checked replay, so the replays service need not replay twice.
bool EncodeActions(const GameConfig& config, const std::vector<Action>& actions, std::string* bytes, std::string* error,
                   CodecStats* stats = nullptr, State* final_state = nullptr);

// Reads a blob written by EncodeActions under the same configuration. On
// success *out holds the actions, equal to those encoded; on failure *out is unchanged and *error says what is
// wrong and at which step.
bool DecodeActions(const GameConfig& config, std::string_view bytes, std::vector<Action>* out, std::string* error);

}  // namespace metropolis::replays
