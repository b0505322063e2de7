// The debug channel through the replays service (replays.proto, SeatDebug and
// GetDebug), over whichever stores a fixture serves: the fakes
// (replays_test.cc) and PostgreSQL (replays_pg_test.cc) answer the same.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "services/replays/prepare.h"
#include "services/replays/tests/games.h"
#include "services/replays/tests/service_fixture.h"

namespace metropolis::replays::testing {

inline v1::StepDebug* AddStep(v1::SeatDebug* seat, uint32_t step, const std::string& note, uint32_t think_ms = 40) {
  v1::StepDebug* s = seat->add_steps();
  s->set_step(step);
  s->set_note(note);
  s->set_think_ms(think_ms);
  return s;
}

inline void ReplaysServiceTest::CheckDebugChannel(const std::function<int64_t(const std::string&)>& identity) {
  const int64_t ana = identity("ana"), anabot = identity("anabot"), bo = identity("bo"), cy = identity("cy");
  const std::string bot_token = accounts_.Issue({.identity_id = anabot, .name = "anabot", .kind = "bot"});
  const std::string bo_token = accounts_.Issue({.identity_id = bo, .name = "bo", .kind = "player"});
  const std::string cy_token = accounts_.Issue({.identity_id = cy, .name = "cy", .kind = "player"});
  const std::string admin_token = accounts_.Issue({.identity_id = ana, .name = "ana", .kind = "player", .admin = true});

  // Seat 0 anabot (ana's bot), seat 1 bo, seat 2 a network client without an account.
  const auto with_debug = [&](uint64_t seed, const std::string& id) {
    v1::CompletedGameRecord g = PlayGame(seed, id);
    g.mutable_seats(0)->set_identity_id(anabot);
    g.mutable_seats(0)->set_name("anabot");
    g.mutable_seats(1)->set_identity_id(bo);
    g.mutable_seats(1)->set_name("bo");
    v1::SeatDebug* s0 = g.add_debug();
    s0->set_seat(0);
    AddStep(s0, 3, "anabot thinks ore")->set_evaluation(0.25);
    AddStep(s0, 10, "", 900);
    s0->set_notes_dropped(1);
    v1::SeatDebug* s1 = g.add_debug();
    s1->set_seat(1);
    AddStep(s1, 5, "bo's plan");
    v1::SeatDebug* s2 = g.add_debug();
    s2->set_seat(2);
    s2->set_recorded_from_step(6);
    AddStep(s2, 7, "anonymous");
    return g;
  };
  const v1::CompletedGameRecord game = with_debug(71, "g-debug");
  v1::StoreGameResponse stored;
  ASSERT_TRUE(Store(game, &stored).ok());

  // Outside the digest: the game's digest is the same without its debug.
  v1::CompletedGameRecord bare = game;
  bare.clear_debug();
  PreparedGame prepared;
  ASSERT_TRUE(PrepareRecord(bare, &prepared).ok());
  EXPECT_EQ(stored.digest(), prepared.digest);

  // No public read carries it.
  v1::GetReplayRequest replay_request;
  replay_request.set_game_id("g-debug");
  v1::Replay replay;
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetReplay, replay_request, &replay, bot_token).ok());
  EXPECT_EQ(replay.game().debug_size(), 0);
  EXPECT_EQ(replay.DebugString().find("anabot thinks"), std::string::npos);
  v1::ExportGameRequest export_request;
  export_request.set_game_id("g-debug");
  v1::ExportGameResponse exported;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ExportGame, export_request, &exported, bot_token).ok());
  EXPECT_EQ(exported.record_json().find("anabot thinks"), std::string::npos);

  const auto get = [&](const std::string& token, const std::vector<int64_t>& ids, v1::GameDebug* out,
                       const std::string& id = "g-debug") {
    v1::GetDebugRequest request;
    request.set_game_id(id);
    for (int64_t i : ids) request.add_identities(i);
    out->Clear();
    return Call(&v1::Replays::Stub::GetDebug, request, out, token);
  };
  const auto seats_of = [](const v1::GameDebug& d) {
    std::vector<uint32_t> seats;
    for (const auto& s : d.seats()) seats.push_back(s.seat());
    return seats;
  };
  using Seats = std::vector<uint32_t>;
  v1::GameDebug debug;
  // The bot's own token: its seat, exactly as stored, with its identity.
  ASSERT_TRUE(get(bot_token, {}, &debug).ok());
  ASSERT_EQ(seats_of(debug), Seats{0});
  EXPECT_EQ(debug.game_id(), "g-debug");
  v1::SeatDebug expected = game.debug(0);
  expected.set_identity_id(anabot);
  EXPECT_EQ(debug.seats(0).SerializeAsString(), expected.SerializeAsString()) << debug.DebugString();
  ASSERT_TRUE(get(bot_token, {anabot}, &debug).ok());
  EXPECT_EQ(seats_of(debug), Seats{0});
  ASSERT_TRUE(get(bo_token, {}, &debug).ok());
  EXPECT_EQ(seats_of(debug), Seats{1});
  // The gateway, for ana signed in: her bots' seats (she has none herself).
  ASSERT_TRUE(get(kGatewayToken, {ana, anabot}, &debug).ok());
  EXPECT_EQ(seats_of(debug), Seats{0});
  // An administrator: every seat, the one without an account included, or those named.
  ASSERT_TRUE(get(admin_token, {}, &debug).ok());
  EXPECT_EQ(seats_of(debug), (Seats{0, 1, 2}));
  EXPECT_EQ(debug.seats(2).recorded_from_step(), 6u);
  ASSERT_TRUE(get(admin_token, {bo}, &debug).ok());
  EXPECT_EQ(seats_of(debug), Seats{1});

  // Everyone else, precisely refused, with nothing of the game.
  const auto refused = [&](const std::string& token, const std::vector<int64_t>& ids, grpc::StatusCode code,
                           const std::string& id = "g-debug") {
    const grpc::Status s = get(token, ids, &debug, id);
    EXPECT_EQ(s.error_code(), code) << s.error_message();
    EXPECT_EQ(debug.seats_size(), 0);
    return s.error_message();
  };
  EXPECT_EQ(refused(cy_token, {}, grpc::StatusCode::PERMISSION_DENIED),
            "no seat of game g-debug is yours: its debug is for its bots' authors only");
  refused(bot_token, {bo}, grpc::StatusCode::PERMISSION_DENIED);
  refused(kReadToken, {}, grpc::StatusCode::PERMISSION_DENIED);  // a service that is not the gateway
  refused(kStoreToken, {anabot}, grpc::StatusCode::PERMISSION_DENIED);
  refused(kGatewayToken, {}, grpc::StatusCode::INVALID_ARGUMENT);
  refused(kGatewayToken, {cy}, grpc::StatusCode::PERMISSION_DENIED);
  refused(kGatewayToken, {0}, grpc::StatusCode::INVALID_ARGUMENT);
  refused("forged", {}, grpc::StatusCode::UNAUTHENTICATED);
  refused(bot_token, {}, grpc::StatusCode::NOT_FOUND, "g-nothing");
  refused(bot_token, {}, grpc::StatusCode::INVALID_ARGUMENT, "no spaces");

  // Stored again with other debug: the first stays.
  v1::CompletedGameRecord again = game;
  again.mutable_debug(0)->mutable_steps(0)->set_note("rewritten");
  v1::StoreGameResponse second;
  ASSERT_TRUE(Store(again, &second).ok());
  EXPECT_TRUE(second.already_stored());
  ASSERT_TRUE(get(bot_token, {}, &debug).ok());
  EXPECT_EQ(debug.seats(0).steps(0).note(), "anabot thinks ore");

  // A hidden game's debug is hidden from its author too, until revealed.
  v1::CompletedGameRecord hidden = with_debug(72, "t-debug-0");
  hidden.set_tournament("cup");
  ASSERT_TRUE(Store(hidden).ok());
  refused(bot_token, {}, grpc::StatusCode::FAILED_PRECONDITION, "t-debug-0");
  ASSERT_TRUE(RevealIds("cup", {"t-debug-0"}).ok());
  ASSERT_TRUE(get(bot_token, {}, &debug, "t-debug-0").ok());
  EXPECT_EQ(seats_of(debug), Seats{0});

  // Debug that breaks its bounds is refused with the game, and nothing is stored.
  const auto bad = [&](const std::string& id, const std::function<void(v1::CompletedGameRecord*)>& spoil) {
    v1::CompletedGameRecord g = with_debug(73, id);
    spoil(&g);
    const grpc::Status s = Store(g);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << id;
    v1::Replay none;
    replay_request.set_game_id(id);
    EXPECT_EQ(Call(&v1::Replays::Stub::GetReplay, replay_request, &none).error_code(), grpc::StatusCode::NOT_FOUND)
        << id;
    return s.error_message();
  };
  EXPECT_EQ(bad("g-bad-note", [](auto* g) { g->mutable_debug(1)->mutable_steps(0)->set_note(std::string(257, 'x')); }),
            "debug[1] step 5: a note of 257 bytes (at most 256)");
  bad("g-bad-order", [](auto* g) { AddStep(g->mutable_debug(0), 2, "back in time"); });
  bad("g-bad-past", [](auto* g) { AddStep(g->mutable_debug(0), uint32_t(g->actions_size()), "after the end"); });
  bad("g-bad-before", [](auto* g) { g->mutable_debug(2)->set_recorded_from_step(8); });
  bad("g-bad-seat", [](auto* g) { g->mutable_debug(2)->set_seat(9); });
  bad("g-bad-twice", [](auto* g) { g->mutable_debug(2)->set_seat(1); });
  bad("g-bad-identity", [](auto* g) { g->mutable_debug(1)->set_identity_id(5); });
  bad("g-bad-eval", [](auto* g) { g->mutable_debug(0)->mutable_steps(0)->set_evaluation(std::nan("")); });
  EXPECT_EQ(bad("g-bad-budget",
                [](auto* g) {
                  v1::SeatDebug* s = g->mutable_debug(1);
                  for (uint32_t step = 6; step < 6 + 257; ++step) AddStep(s, step, std::string(256, 'n'));
                }),
            "debug[1]: 65801 bytes of notes and evaluations (at most 65536 per seat)");
}

}  // namespace metropolis::replays::testing
