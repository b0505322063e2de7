// The position notation: a one-line text form of a State, in the spirit of
// chess's FEN, that carries any position exactly, including one in the middle
// of a decision (pending discards, a displaced knight, an open trade offer,
// pending steps of a roll's resolution, decks with returned hidden cards).
// The grammar and examples are in docs/NOTATION.md.
//
// Fields whose value can be recomputed from the rest (piece supplies, node and
// edge masks, road lengths, victory points, the bank when it holds exactly what
// the hands do not) are not written; the parser recomputes them and then runs
// State::Validate(), so a text that parses is a consistent state.
#pragma once

#include <string>
#include <string_view>

#include "engine/state.h"

namespace metropolis {

// The canonical text of `s`: fixed field order, fields at their default value
// left out. FromNotation(ToNotation(s)) == s for every state that Validate()
// accepts, and ToNotation(FromNotation(t)) == t for canonical t.
std::string ToNotation(const State& s);

// Parses `text` into *out. Fields may come in any order after the version and
// the ruleset, each at most once; fields left out take their default. On
// failure *out is unchanged and *error names the field, quotes the token and
// says what is wrong ("k1: '60:2a' — node 60 out of range 0..53"); a state
// that Validate() rejects is an error quoting Validate()'s message.
bool FromNotation(std::string_view text, State* out, std::string* error);

// An ASCII drawing of the board for people (the CLI's apply and replay):
// hexes with terrain letter and token, the robber and the merchant, every
// building and knight with its owner, roads by owner digit, and a few lines of
// status. Not meant to be parsed.
std::string BoardPicture(const State& s);

}  // namespace metropolis
