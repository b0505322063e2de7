// The seats of one game on one host, played by the test through recording
// streams: for the checkpoint and pause tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "lib/protocol/seat_record.h"
#include "services/gamehost/tests/fakes.h"

namespace metropolis::gamehost::testing {

// Seats of one game on one host, played by the test.
struct Seats {
  Seats(TestHost* h, const v1::CreateGameResponse* g) : host(h), created(g) {}

  // Connects every seat (new streams) to this host's copy of the game.
  void Connect() {
    streams.clear();
    for (int i = 0; i < created->seat_tokens_size(); ++i) {
      Host::Target target;
      grpc::Status s = host->host->FindSeat(created->seat_tokens(i), created->game_id(), &target);
      ASSERT_TRUE(s.ok()) << s.error_message();
      ASSERT_TRUE(target.game) << "redirected to " << target.redirect;
      game = target.game;
      v1::PlayHello hello;
      hello.set_game_id(created->game_id());
      for (v1::Capability c : capabilities) hello.add_capabilities(c);
      streams.push_back(std::make_shared<RecordingSeat>());
      ASSERT_TRUE(game->Connect(i, hello, streams.back()).ok());
    }
  }
  int Actor() const {
    int best = -1;
    uint32_t step = 0;
    for (int i = 0; i < int(streams.size()); ++i) {
      const v1::Decision* d = streams[i]->PendingDecision();
      if (d && !streams[i]->finished && (best < 0 || d->step() > step)) best = i, step = d->step();
    }
    return best;
  }
  // Answers `n` decisions (or until the game ends) with legal actions.
  int Play(int n) {
    int played = 0;
    for (; played < n; ++played) {
      host->Settle();
      const int actor = Actor();
      if (actor < 0) break;
      const v1::Decision& d = *streams[actor]->PendingDecision();
      v1::PlayAnswer answer;
      answer.set_step(d.step());
      answer.mutable_action()->set_code(d.view().legal(played % d.view().legal_size()));
      if (decorate) decorate(actor, d, &answer);
      game->Answer(actor, streams[actor].get(), answer, host->clock.Now());
    }
    host->Settle();
    return played;
  }

  // Asked for in every hello (PlayHello.capabilities).
  std::vector<v1::Capability> capabilities;
  // Called on each answer before it is sent (a debug note, a delay on the clock).
  std::function<void(int seat, const v1::Decision&, v1::PlayAnswer*)> decorate;

  TestHost* host;
  const v1::CreateGameResponse* created;
  std::shared_ptr<Game> game;
  std::vector<std::shared_ptr<RecordingSeat>> streams;
};

// A four-seat game (seats named p0..p3) with the given chance seed, created on
// `t`'s host by the administrator.
inline v1::CreateGameResponse CreateGame(TestHost* t, uint64_t seed) {
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) request.add_seats()->set_name("p" + std::to_string(i));
  request.set_chance_seed(seed);
  v1::CreateGameResponse created;
  const grpc::Status s = t->host->CreateGame(kAdmin, request, &created);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return created;
}

// The last step a seat's stream was told of (by a welcome, events or a decision).
inline uint32_t LastStepSeen(const RecordingSeat& seat) {
  uint32_t last = 0;
  for (const auto& u : seat.updates) last = std::max(last, protocol::StepOf(*u));
  return last;
}

}  // namespace metropolis::gamehost::testing
