// Completed games as a game host hands them to the replays service, played
// to their end by a seeded random player, for the replays tests.
#pragma once

#include <cstdint>
#include <string>

#include "engine/game.h"
#include "lib/chance/chance.h"
#include "lib/chance/verifiable.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/replays.pb.h"

namespace metropolis::replays::testing {

// A random game played to its end with `chance`.
inline v1::CompletedGameRecord PlayGameWith(chance::ChanceStreams chance, uint64_t seed, const std::string& id,
                                            const std::string& ladder, int64_t finished_ms) {
  GameConfig config;
  config.num_seats = 3 + int(seed % 2);
  config.board = DefaultBoard();
  State state(config);
  uint64_t rng = seed * 7919 + 1;
  v1::CompletedGameRecord g;
  while (!state.IsTerminal()) {
    Action a;
    if (state.IsChanceNode()) {
      a = chance.Sample(state);
    } else {
      const auto legal = state.LegalActions();
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      a = legal[(rng >> 33) % legal.size()];
    }
    state.ApplyUnchecked(a);
    g.add_actions(Encode(a));
  }
  g.set_game_id(id);
  g.set_ladder(ladder);
  g.set_season(ladder.empty() ? 0 : 1);
  protocol::ConfigToProto(config, g.mutable_config());
  for (int i = 0; i < config.num_seats; ++i) {
    v1::SeatRecord* s = g.add_seats();
    s->set_seat(uint32_t(i));
    s->set_name("p" + std::to_string(i));
  }
  protocol::ResultToProto(state, g.mutable_result());
  g.set_created_unix_ms(finished_ms - 60'000);
  g.set_finished_unix_ms(finished_ms);
  return g;
}

// The same with a known seed (chance version 1).
inline v1::CompletedGameRecord PlayGame(uint64_t seed, const std::string& id, const std::string& ladder = "",
                                        int64_t finished_ms = 1'800'000'000'000) {
  v1::CompletedGameRecord g = PlayGameWith(chance::ChanceStreams(seed), seed, id, ladder, finished_ms);
  g.set_chance_seed(seed);
  return g;
}

// PlayGame's game cut after `steps` actions, where `seat` resigned
// (END_REASON_RESIGNED), as a host hands it over: the seat forfeited, no winner,
// the points where the game stood.
inline v1::CompletedGameRecord PlayResignedGame(uint64_t seed, const std::string& id, int seat, int steps) {
  v1::CompletedGameRecord g = PlayGame(seed, id);
  g.mutable_actions()->Truncate(steps);
  GameConfig config;
  config.num_seats = 3 + int(seed % 2);
  config.board = DefaultBoard();
  State state(config);
  for (uint64_t code : g.actions()) state.ApplyUnchecked(*Decode(code));
  protocol::ResultToProto(state, g.mutable_result());
  g.mutable_result()->set_reason(v1::END_REASON_RESIGNED);
  g.mutable_result()->set_resigned_seat(uint32_t(seat));
  g.mutable_seats(seat)->set_forfeited(true);
  return g;
}

// The same with a secret seed and its commitment (version 2, docs/CHANCE.md).
inline v1::CompletedGameRecord PlayVerifiableGame(const chance::Seed& seed, const std::string& id) {
  v1::CompletedGameRecord g = PlayGameWith(chance::VerifiableStreams(seed), 5, id, "", 1'800'000'000'000);
  g.set_verifiable_seed(std::string(chance::AsBytes(seed)));
  g.set_chance_commitment(std::string(chance::AsBytes(chance::CommitTo(seed))));
  return g;
}

// A tournament's game, as its host hands it over.
inline v1::CompletedGameRecord InTournament(const std::string& tournament, const std::string& id, uint64_t seed,
                                            int64_t finished_ms = 1'800'000'000'000) {
  auto g = PlayGame(seed, id, "", finished_ms);
  g.set_tournament(tournament);
  return g;
}

}  // namespace metropolis::replays::testing
