// The one rule for what the replays service shows of tournaments' games
// (docs/TOURNAMENTS.md, "Duplicate sets stay hidden").
//
// A game stored without a tournament is always shown. A game stored under a
// tournament is hidden unless a reveal names it: the tournament's whole-
// tournament reveal, or the game's own id under the game's own tournament. The
// tournaments service sends reveals (Replays.RevealGames): the whole tournament
// for formats that hide nothing, a duplicate set's counted games once every
// rotation has finished. Everything else — a set still playing, a void attempt,
// a cancelled tournament's unfinished set, a game stored before any reveal
// arrived, a reveal that got lost — stays hidden: the rule fails closed. Reveals
// are only ever added, so a shown game is never hidden again.
#pragma once

#include <string>
#include <vector>

namespace metropolis::replays {

// One row of game_reveals: game_id empty reveals every game of the tournament.
struct Reveal {
  std::string tournament, game_id;
};

// Whether the game `game_id`, stored under `tournament` (empty: none), may be
// shown given `reveals` (any rows; those of other tournaments do not count).
bool Visible(const std::string& game_id, const std::string& tournament, const std::vector<Reveal>& reveals);

// What a reader is told about a hidden game.
std::string HiddenMessage(const std::string& game_id);

}  // namespace metropolis::replays
