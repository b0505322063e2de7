// Verifiable chance on the host (docs/CHANCE.md): a game without a known seed
// gets a secret one, committed to before its first die in the response and the
// Welcome, and handed over with the completed game so that it verifies; games
// sharing a chance identity share the seed (and, asked, the board) under one key.
#include <gtest/gtest.h>

#include "lib/chance/verifiable.h"
#include "lib/chance/verify.h"
#include "lib/protocol/convert.h"
#include "services/gamehost/results.h"
#include "services/gamehost/tests/fakes.h"

namespace metropolis::gamehost::testing {
namespace {

constexpr char kKey[] = "a platform key of at least 32 bytes, for tests";

v1::CreateGameRequest BotsOnly(const std::string& identity = {}) {
  v1::CreateGameRequest request;
  for (int i = 0; i < 4; ++i) {
    v1::SeatSpec* seat = request.add_seats();
    seat->set_name("bot" + std::to_string(i));
    seat->set_built_in(true);
  }
  request.set_chance_identity(identity);
  return request;
}

const CompletedGame* Completed(TestHost& t, const std::string& id) {
  t.Settle();
  std::lock_guard lock(t.sink.mutex);
  for (const CompletedGame& g : t.sink.games)
    if (g.game_id == id) return &g;
  return nullptr;
}

TEST(VerifiableChanceHost, AGameCommitsToASecretSeedAndItsRecordVerifies) {
  TestHost t("host-a:1", nullptr, true, false, kKey);
  v1::CreateGameResponse created;
  ASSERT_TRUE(t.host->CreateGame(kAdmin, BotsOnly(), &created).ok());
  ASSERT_EQ(created.chance_commitment().size(), 32u);

  // GetGame shows the same commitment before any die (the bots have not moved).
  v1::GameInfo info;
  ASSERT_TRUE(t.host->GetGame(kSpectator, created.game_id(), &info).ok());
  EXPECT_EQ(info.step(), 0u);
  EXPECT_EQ(info.chance_commitment(), created.chance_commitment());

  const CompletedGame* done = Completed(t, created.game_id());
  ASSERT_NE(done, nullptr);
  chance::Seed seed;
  ASSERT_TRUE(chance::FromBytes(done->verifiable_seed, &seed));
  EXPECT_FALSE(done->record.seed.has_value()) << "no known seed beside the secret one";
  EXPECT_EQ(chance::AsBytes(chance::CommitTo(seed)), created.chance_commitment());
  chance::ChanceCheck check;
  EXPECT_TRUE(chance::CheckChance(done->record.config, done->record.actions, chance::VerifiableStreams(seed), &check))
      << check.error;
  EXPECT_GT(check.rolls, 0);

  v1::CompletedGameRecord record;
  CompletedGameToProto(*done, &record);
  EXPECT_EQ(record.verifiable_seed(), done->verifiable_seed);
  EXPECT_EQ(record.chance_commitment(), created.chance_commitment());
  EXPECT_EQ(record.chance_seed(), 0u);
}

TEST(VerifiableChanceHost, OneIdentityOneSeedOnEveryHostWithTheKeyAndNoneWithout) {
  TestHost a("host-a:1", nullptr, true, false, kKey), b("host-b:1", nullptr, true, false, kKey);
  TestHost other_key("host-c:1", nullptr, true, false, std::string(kKey) + "!");
  v1::CreateGameResponse r1, r2, r3, r4, own1, own2;
  v1::CreateGameRequest shared = BotsOnly("tournament/cup/77");
  shared.set_board_from_chance(true);
  ASSERT_TRUE(a.host->CreateGame(kAdmin, shared, &r1).ok());
  ASSERT_TRUE(b.host->CreateGame(kAdmin, shared, &r2).ok());
  ASSERT_TRUE(other_key.host->CreateGame(kAdmin, shared, &r3).ok());
  ASSERT_TRUE(a.host->CreateGame(kAdmin, BotsOnly("tournament/cup/78"), &r4).ok());
  ASSERT_TRUE(a.host->CreateGame(kAdmin, BotsOnly(), &own1).ok());
  ASSERT_TRUE(a.host->CreateGame(kAdmin, BotsOnly(), &own2).ok());
  EXPECT_EQ(r1.chance_commitment(), r2.chance_commitment()) << "the same identity and key: the same seed";
  EXPECT_NE(r1.chance_commitment(), r3.chance_commitment()) << "another key: another seed";
  EXPECT_NE(r1.chance_commitment(), r4.chance_commitment()) << "another identity: another seed";
  EXPECT_NE(own1.chance_commitment(), own2.chance_commitment()) << "games of their own: fresh seeds";

  // The board drawn from the seed: the same for the set, a random one (not the default).
  const CompletedGame* g1 = Completed(a, r1.game_id());
  const CompletedGame* g2 = Completed(b, r2.game_id());
  ASSERT_TRUE(g1 && g2);
  EXPECT_EQ(g1->record.config.board.terrain, g2->record.config.board.terrain);
  EXPECT_EQ(g1->record.config.board.token, g2->record.config.board.token);
  EXPECT_NE(g1->record.config.board.terrain, DefaultBoard().terrain);
  EXPECT_EQ(g1->record.actions, g2->record.actions) << "built-in bots draw from the seed too: one game, twice";
}

TEST(VerifiableChanceHost, KnownSeedsStayVersionOneAndBadRequestsChangeNothing) {
  TestHost t("host-a:1", nullptr, true, false, kKey);
  v1::CreateGameRequest known = BotsOnly();
  known.set_chance_seed(42);
  v1::CreateGameResponse created;
  ASSERT_TRUE(t.host->CreateGame(kAdmin, known, &created).ok());
  EXPECT_TRUE(created.chance_commitment().empty());
  const CompletedGame* done = Completed(t, created.game_id());
  ASSERT_NE(done, nullptr);
  EXPECT_TRUE(done->verifiable_seed.empty());
  EXPECT_EQ(done->record.seed, 42u);

  struct Bad {
    const char* what;
    std::function<void(v1::CreateGameRequest*)> change;
    const char* error;
  } cases[] = {
      {"long identity", [](v1::CreateGameRequest* r) { r->set_chance_identity(std::string(201, 'x')); },
       "chance_identity: longer than 200 bytes"},
      {"board and known seed",
       [](v1::CreateGameRequest* r) {
         r->set_board_from_chance(true);
         r->set_chance_seed(5);
       },
       "board_from_chance: needs verifiable chance (chance_seed 0)"},
      {"two boards",
       [](v1::CreateGameRequest* r) {
         r->set_board_from_chance(true);
         r->mutable_config()->set_random_board_seed(9);
       },
       "board_from_chance: the config gives a board already"},
  };
  for (const Bad& c : cases) {
    v1::CreateGameRequest request = BotsOnly();
    c.change(&request);
    v1::CreateGameResponse response;
    const grpc::Status s = t.host->CreateGame(kAdmin, request, &response);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.what;
    EXPECT_EQ(s.error_message(), c.error) << c.what;
    EXPECT_TRUE(response.game_id().empty()) << c.what;
  }
  v1::ListGamesResponse games;
  ASSERT_TRUE(t.host->ListGames(kSpectator, {}, &games).ok());
  EXPECT_EQ(games.games_size(), 0) << "only the finished game was created";
}

}  // namespace
}  // namespace metropolis::gamehost::testing
