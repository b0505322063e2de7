// Conversion between the engine's types and the public API's messages
// (proto/metropolis/v1/game.proto), field for field. The engine knows nothing
// of protobuf, so every service, bot kit and test that speaks metropolis.v1
// converts here and nowhere else.
//
// Two directions, two contracts:
//   *ToProto   from the engine's own values, which are trusted: complete
//              messages (every list at its documented length, every option
//              set), nothing to fail.
//   *FromProto from the network, which is not: every list length, range and
//              enum value is checked before it reaches a narrow engine field,
//              and the first problem is returned in *error, named by the
//              field's path ("position.road_owner[17]: 9 is not a seat
//              (-1..3)"). On failure *out is left untouched.
//
// Round trips are exact: XFromProto(XToProto(x)) == x for every action, masked
// event and view the engine produces (tests/ check this over random games),
// with these exceptions and representation details:
//   - Event::private_to has no wire form (an event on the wire is already
//     masked for its receiver) and reads 0;
//   - a kTradeExecuted event's cards travel as a TRADE_COUNTER code (give and
//     want from `seat`'s side): the engine's event holds them in an action
//     without a type of its own;
//   - base game views: View::dev_count travels in progress_count (no seat
//     holds progress cards in the base game); dev_deck_size and unplaced_dev
//     are also checked against the 25 development cards in sight.
#pragma once

#include <string>

#include "engine/action.h"
#include "engine/config.h"
#include "engine/event.h"
#include "engine/state.h"
#include "engine/view.h"

namespace metropolis::v1 {
class Action;
class Event;
class GameConfig;
class GameResult;
class View;
}  // namespace metropolis::v1

namespace metropolis::protocol {

// ---- Configuration -----------------------------------------------------------

// Reads a requested configuration: rules_version 0 means this engine's
// kRulesVersion, num_seats 0 means 4, options left unset take the ruleset's
// defaults (DefaultOptions), an empty red_die_table the ruleset's table. The
// board is `board` when set, else RandomBoard(random_board_seed) when that
// seed is not 0, else DefaultBoard(); setting both is an error. The result
// passes ValidateConfig.
bool ConfigFromProto(const v1::GameConfig& in, GameConfig* out, std::string* error);
// Complete: the board and every option are written out explicitly, so that
// the message means the same game to a reader with other defaults.
void ConfigToProto(const GameConfig& in, v1::GameConfig* out);

// ---- Actions and events ------------------------------------------------------

struct ToProtoOptions {
  // Also fill Action.text with ActionToString (PlayHello.want_text).
  bool want_text = false;
};

void ActionToProto(const Action& a, v1::Action* out, const ToProtoOptions& options = {});
// An answer from a seat: `code` decoded, unless it is 0 and `text` is set, in
// which case `text` is parsed (code 0 is itself a valid action, the start
// player roll for seat 0, so an unset code cannot be told from it; a seat never
// sends that chance action). Errors: "action: code 0x... names no action of
// rules version 1", or ParseAction's message.
bool ActionFromProto(const v1::Action& in, Action* out, std::string* error);

// `e` is already masked for its receiver (MaskEvent).
void EventToProto(const Event& e, v1::Event* out, const ToProtoOptions& options = {});
// For clients reading the host's events; a masked card (kHiddenCard) is
// accepted where MaskEvent puts one.
bool EventFromProto(const v1::Event& in, Event* out, std::string* error);

// ---- Views -------------------------------------------------------------------

// Position mirrors the masked State field by field; per-seat lists have
// num_seats entries.
void ViewToProto(const View& v, v1::View* out);
// The spectator's view of `s` (viewer -1), e.g. for SpectateUpdate.
void PublicViewToProto(const State& s, v1::View* out);
// Rebuilds the view from the message and the game's configuration (options,
// terrain and harbors; the tokens come from the position since the Inventor
// may swap them). Besides ranges, the pieces are checked for what the engine's
// derived data relies on: every building and knight has an owner and a valid
// level, no seat has more pieces than its supply, and the transmitted piece
// masks agree with the per-node and per-edge lists. The masked state is not
// Validate()d: hidden cards are missing from it by design.
bool ViewFromProto(const v1::View& in, const GameConfig& config, View* out, std::string* error);

// ---- Results -----------------------------------------------------------------

// WON when the state has a winner, LENGTH_CAP when it ended without one, and
// ABORTED for a state that has not ended (a game stopped by its host). vp
// counts hidden victory point cards.
void ResultToProto(const State& s, v1::GameResult* out);

}  // namespace metropolis::protocol
