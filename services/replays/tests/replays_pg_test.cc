// The replays service against a real PostgreSQL (label integration): store once,
// list with keyset paging, step through, export; refuse what is malformed or
// unauthorised with precise statuses and store nothing of it.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <pqxx/pqxx>
#include <set>

#include "engine/game.h"
#include "lib/auth/token_authenticator.h"
#include "lib/chance/chance.h"
#include "lib/chance/verifiable.h"
#include "lib/protocol/convert.h"
#include "lib/storage/migrations.h"
#include "lib/storage/tests/test_database.h"
#include "services/accounts/store.h"
#include "services/replays/service.h"

namespace metropolis::replays {
namespace {

constexpr char kStoreToken[] = "store-secret";
constexpr char kReadToken[] = "read-secret";

// A random game played to its end with `chance`, as the host would hand it over.
v1::CompletedGameRecord PlayGameWith(chance::ChanceStreams chance, uint64_t seed, const std::string& id,
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
v1::CompletedGameRecord PlayGame(uint64_t seed, const std::string& id, const std::string& ladder = "",
                                 int64_t finished_ms = 1'800'000'000'000) {
  v1::CompletedGameRecord g = PlayGameWith(chance::ChanceStreams(seed), seed, id, ladder, finished_ms);
  g.set_chance_seed(seed);
  return g;
}

// The same with a secret seed and its commitment (version 2, docs/CHANCE.md).
v1::CompletedGameRecord PlayVerifiableGame(const chance::Seed& seed, const std::string& id) {
  v1::CompletedGameRecord g = PlayGameWith(chance::VerifiableStreams(seed), 5, id, "", 1'800'000'000'000);
  g.set_verifiable_seed(std::string(chance::AsBytes(seed)));
  g.set_chance_commitment(std::string(chance::AsBytes(chance::CommitTo(seed))));
  return g;
}

class ReplaysTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(database_.ok());
    std::string error;
    ASSERT_TRUE(storage::testing::MigrateAll(database_.conninfo(), METROPOLIS_MIGRATIONS_DIR, &error)) << error;
    pool_ = std::make_unique<storage::PgPool>(database_.conninfo(), 4);
    store_ = std::make_unique<ReplayStore>(pool_.get());
    // A reader's token is a service token here; account tokens are the
    // accounts' tests' business.
    auth_ = std::make_unique<auth::TokenAuthenticator>(
        nullptr, std::vector<std::pair<std::string, std::string>>{{kStoreToken, "gamehost"}, {kReadToken, "reader"}});
    reveals_ = std::make_unique<RevealStore>(pool_.get());
    service_ = std::make_unique<ReplaysService>(store_.get(), reveals_.get(), auth_.get());
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    stub_ = v1::Replays::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (server_) server_->Shutdown();
  }

  grpc::Status Store(const v1::CompletedGameRecord& g, v1::StoreGameResponse* out = nullptr,
                     const std::string& token = kStoreToken) {
    grpc::ClientContext context;
    if (!token.empty()) context.AddMetadata("authorization", "Bearer " + token);
    v1::StoreGameRequest request;
    *request.mutable_game() = g;
    v1::StoreGameResponse response;
    return stub_->StoreGame(&context, request, out ? out : &response);
  }
  template <typename Request, typename Response, typename Method>
  grpc::Status Call(Method method, const Request& request, Response* response, const std::string& token = kReadToken) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer " + token);
    return ((*stub_).*method)(&context, request, response);
  }
  int StoredGames() {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    return tx.exec1("SELECT count(*) FROM games")[0].as<int>();
  }

  storage::testing::TestDatabase database_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<ReplayStore> store_;
  std::unique_ptr<RevealStore> reveals_;
  std::unique_ptr<auth::TokenAuthenticator> auth_;
  std::unique_ptr<ReplaysService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Replays::Stub> stub_;
};

TEST_F(ReplaysTest, StoringTheSameGameTwiceStoresItOnce) {
  const auto game = PlayGame(1, "g-one");
  v1::StoreGameResponse first, second;
  ASSERT_TRUE(Store(game, &first).ok());
  EXPECT_FALSE(first.already_stored());
  EXPECT_GT(first.compact_bytes(), 0u);
  EXPECT_LT(first.compact_bytes(), uint32_t(game.actions_size()));  // under a byte per action
  ASSERT_TRUE(Store(game, &second).ok());
  EXPECT_TRUE(second.already_stored());
  EXPECT_EQ(StoredGames(), 1);

  auto other = PlayGame(2, "g-one");  // another game under the same id
  EXPECT_EQ(Store(other).error_code(), grpc::StatusCode::ALREADY_EXISTS);

  v1::GetReplayRequest request;
  request.set_game_id("g-one");
  v1::Replay replay;
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetReplay, request, &replay).ok());
  EXPECT_EQ(replay.game().actions_size(), game.actions_size());
  EXPECT_TRUE(std::equal(game.actions().begin(), game.actions().end(), replay.game().actions().begin()));
  EXPECT_EQ(replay.game().seats_size(), game.seats_size());
  EXPECT_EQ(replay.game().result().winner(), game.result().winner());
  EXPECT_EQ(replay.game().finished_unix_ms(), game.finished_unix_ms());
}

grpc::Status Confirm(v1::Replays::Stub* stub, const std::string& token, const std::string& game_id,
                     const std::string& digest, bool* confirmed) {
  grpc::ClientContext context;
  context.AddMetadata("authorization", "Bearer " + token);
  v1::ConfirmGameRequest request;
  request.set_game_id(game_id);
  request.set_digest(digest);
  v1::ConfirmGameResponse response;
  const grpc::Status s = stub->ConfirmGame(&context, request, &response);
  *confirmed = response.confirmed();
  return s;
}

// docs/RESULTS.md: the digest is of what is stored, the same when the game is
// stored again, and Replays confirms exactly that digest for that game.
TEST_F(ReplaysTest, StoringReturnsTheStoredGamesDigestWhichConfirmGameConfirms) {
  const auto game = PlayGame(4, "g-digest", "open");
  v1::StoreGameResponse first, second;
  ASSERT_TRUE(Store(game, &first).ok());
  ASSERT_EQ(first.digest().size(), 64u) << first.digest();
  ASSERT_TRUE(Store(game, &second).ok());
  ASSERT_TRUE(second.already_stored());
  // The second digest is the one kept in games.digest (that it is the digest
  // of what the tables hold: ADigestStoredBeforeItsColumnIsComputedOnce).
  EXPECT_EQ(second.digest(), first.digest());

  bool confirmed = false;
  ASSERT_TRUE(Confirm(stub_.get(), kStoreToken, "g-digest", first.digest(), &confirmed).ok());
  EXPECT_TRUE(confirmed);
  std::string other = first.digest();
  other[0] = other[0] == '0' ? '1' : '0';
  ASSERT_TRUE(Confirm(stub_.get(), kReadToken, "g-digest", other, &confirmed).ok());
  EXPECT_FALSE(confirmed);

  // Another game's digest does not confirm this one.
  v1::StoreGameResponse stored_b;
  ASSERT_TRUE(Store(PlayGame(5, "g-digest-b", "open"), &stored_b).ok());
  EXPECT_NE(stored_b.digest(), first.digest());
  ASSERT_TRUE(Confirm(stub_.get(), kStoreToken, "g-digest", stored_b.digest(), &confirmed).ok());
  EXPECT_FALSE(confirmed);

  EXPECT_EQ(Confirm(stub_.get(), kStoreToken, "g-unknown", first.digest(), &confirmed).error_code(),
            grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Confirm(stub_.get(), kStoreToken, "g-digest", "ABC", &confirmed).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Confirm(stub_.get(), "forged", "g-digest", first.digest(), &confirmed).error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
}

// Migration 0050: StoreGame keeps the digest in games.digest, which ConfirmGame
// reads. A game stored before that column (digest NULL) still confirms: its
// digest is computed from the tables the first time it is asked for, and must
// equal the one StoreGame computed from the record (so that digest is of what
// was really stored), then written in; a wrong digest is still refused.
TEST_F(ReplaysTest, ADigestStoredBeforeItsColumnIsComputedOnce) {
  v1::StoreGameResponse stored, stored_b;
  ASSERT_TRUE(Store(PlayGame(6, "g-old", "open"), &stored).ok());
  ASSERT_TRUE(Store(PlayGame(7, "g-old-b", "open"), &stored_b).ok());
  auto column = [&](const std::string& id) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    const pqxx::row r = tx.exec_params1("SELECT digest FROM games WHERE id = $1", id);
    return r[0].is_null() ? std::string("NULL") : r[0].as<std::string>();
  };
  EXPECT_EQ(column("g-old"), stored.digest());
  {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec("UPDATE games SET digest = NULL");  // as stored before migration 0050
    tx.commit();
  }
  bool confirmed = true;
  std::string other = stored.digest();
  other[0] = other[0] == '0' ? '1' : '0';
  ASSERT_TRUE(Confirm(stub_.get(), kStoreToken, "g-old", other, &confirmed).ok());
  EXPECT_FALSE(confirmed);
  EXPECT_EQ(column("g-old"), stored.digest());  // computed, written in
  ASSERT_TRUE(Confirm(stub_.get(), kStoreToken, "g-old", stored.digest(), &confirmed).ok());
  EXPECT_TRUE(confirmed);
  // Kept from then on: a digest put in the column is what ConfirmGame answers by.
  {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec_params("UPDATE games SET digest = $1 WHERE id = 'g-old'", other);
    tx.commit();
  }
  ASSERT_TRUE(Confirm(stub_.get(), kStoreToken, "g-old", other, &confirmed).ok());
  EXPECT_TRUE(confirmed);
  // StoreGame again for a game without the column's digest computes it too.
  EXPECT_EQ(column("g-old-b"), "NULL");
  v1::StoreGameResponse again;
  ASSERT_TRUE(Store(PlayGame(7, "g-old-b", "open"), &again).ok());
  EXPECT_TRUE(again.already_stored());
  EXPECT_EQ(again.digest(), stored_b.digest());
  EXPECT_EQ(column("g-old-b"), stored_b.digest());
}

// A player's valid API token may read replays but not confirm digests.
TEST_F(ReplaysTest, OnlyServiceTokensMayConfirmADigest) {
  accounts::AccountStore accounts(pool_.get());
  accounts::Identity player;
  ASSERT_TRUE(accounts.CreateIdentity("player", "reader1", "", &player).ok());
  accounts::IssuedToken issued;
  ASSERT_TRUE(accounts.IssueToken("reader1", "test", false, &issued).ok());
  auth::TokenAuthenticator auth(&accounts, {{kStoreToken, "gamehost"}});
  RevealStore reveals(pool_.get());
  ReplaysService service(store_.get(), &reveals, &auth);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
  builder.RegisterService(&service);
  auto server = builder.BuildAndStart();
  auto stub = v1::Replays::NewStub(
      grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  v1::StoreGameResponse stored;
  ASSERT_TRUE(Store(PlayGame(6, "g-token"), &stored).ok());
  bool confirmed = true;
  EXPECT_EQ(Confirm(stub.get(), issued.token, "g-token", stored.digest(), &confirmed).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(Confirm(stub.get(), kStoreToken, "g-token", stored.digest(), &confirmed).ok());
  EXPECT_TRUE(confirmed);
  server->Shutdown();
}

TEST_F(ReplaysTest, MalformedAndUnauthorisedRequestsStoreNothing) {
  const auto game = PlayGame(3, "g-good");
  EXPECT_EQ(Store(game, nullptr, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Store(game, nullptr, "forged").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Store(game, nullptr, kReadToken).error_code(), grpc::StatusCode::PERMISSION_DENIED);

  auto bad_id = game;
  bad_id.set_game_id("no spaces");
  EXPECT_EQ(Store(bad_id).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  auto illegal = game;
  illegal.set_actions(5, Encode(Action::BuildRoad(0)));
  grpc::Status s = Store(illegal);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message().rfind("game.actions[5]: build_road e0: ", 0), 0u) << s.error_message();

  auto cut = game;
  cut.mutable_actions()->RemoveLast();
  s = Store(cut);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "game.actions: the game is not over after the last action");

  auto lie = game;
  lie.mutable_result()->set_winner((game.result().winner() + 1) % game.seats_size());
  EXPECT_EQ(Store(lie).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  auto seats = game;
  seats.mutable_seats()->RemoveLast();
  EXPECT_EQ(Store(seats).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(StoredGames(), 0);

  v1::GetReplayRequest missing;
  missing.set_game_id("g-missing");
  v1::Replay replay;
  EXPECT_EQ(Call(&v1::Replays::Stub::GetReplay, missing, &replay).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::ListStoredGamesRequest list;
  list.set_page_token("garbage");
  v1::ListStoredGamesResponse listed;
  EXPECT_EQ(Call(&v1::Replays::Stub::ListGames, list, &listed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

TEST_F(ReplaysTest, ListingPagesThroughEveryGameOnceNewestFirst) {
  for (int i = 0; i < 7; ++i) {
    // Two games share a finish time: the id breaks the tie.
    const int64_t finished = 1'800'000'000'000 + (i / 2) * 1000;
    ASSERT_TRUE(Store(PlayGame(10 + i, "g-" + std::to_string(i), i % 2 ? "weekly" : "", finished)).ok());
  }
  std::vector<std::string> seen;
  v1::ListStoredGamesRequest request;
  request.set_page_size(3);
  for (int pages = 0; pages < 10; ++pages) {
    v1::ListStoredGamesResponse page;
    ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, request, &page).ok());
    for (const auto& g : page.games()) seen.push_back(g.game_id());
    if (page.next_page_token().empty()) break;
    request.set_page_token(page.next_page_token());
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"g-6", "g-5", "g-4", "g-3", "g-2", "g-1", "g-0"}));

  v1::ListStoredGamesRequest weekly;
  weekly.set_ladder("weekly");
  v1::ListStoredGamesResponse page;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, weekly, &page).ok());
  EXPECT_EQ(page.games_size(), 3);
  for (const auto& g : page.games()) EXPECT_EQ(g.ladder(), "weekly");
}

TEST_F(ReplaysTest, AnyStepOfAStoredGameAndItsExport) {
  const auto game = PlayGame(4, "g-steps");
  ASSERT_TRUE(Store(game).ok());
  GameConfig config;
  std::string error;
  ASSERT_TRUE(protocol::ConfigFromProto(game.config(), &config, &error)) << error;
  State state(config);
  KnowledgeTracker spectator(kNoSeat);  // what the public has learnt on the way
  spectator.Reset(state);
  const uint32_t step = uint32_t(game.actions_size() / 2);
  for (uint32_t i = 0; i < step; ++i) {
    std::vector<Event> events;
    state.ApplyUnchecked(*Decode(game.actions(int(i))), &events);
    for (const Event& e : events) spectator.Observe(MaskEvent(e, kNoSeat));
  }

  v1::GetPositionRequest request;
  request.set_game_id("g-steps");
  request.set_step(step);
  request.set_viewer(-1);
  v1::PositionResponse position;
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetPosition, request, &position).ok());
  EXPECT_EQ(position.step(), step);
  EXPECT_EQ(position.view().position().action_count(), state.action_count());
  EXPECT_EQ(position.action().code(), game.actions(int(step) - 1));
  View public_view(state);
  ASSERT_TRUE(protocol::ViewFromProto(position.view(), config, &public_view, &error)) << error;
  EXPECT_TRUE(public_view == MakeView(state, kNoSeat, &spectator));

  request.set_viewer(1);
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetPosition, request, &position).ok());
  EXPECT_EQ(position.view().viewer(), 1);
  request.set_step(uint32_t(game.actions_size()) + 1);
  EXPECT_EQ(Call(&v1::Replays::Stub::GetPosition, request, &position).error_code(), grpc::StatusCode::OUT_OF_RANGE);
  request.set_step(0);
  request.set_viewer(7);
  EXPECT_EQ(Call(&v1::Replays::Stub::GetPosition, request, &position).error_code(), grpc::StatusCode::INVALID_ARGUMENT);

  v1::ExportGameRequest export_request;
  export_request.set_game_id("g-steps");
  v1::ExportGameResponse exported;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ExportGame, export_request, &exported).ok());
  GameRecord record;
  ASSERT_TRUE(GameRecordFromJson(exported.record_json(), &record, &error)) << error;
  EXPECT_EQ(int(record.actions.size()), game.actions_size());
  ASSERT_TRUE(ReplayGame(record, {}, &error)) << error;
}

// PostgreSQL's BIGINT is signed: a seed of 2^63 or more is stored negative
// and must come back as it was.
TEST_F(ReplaysTest, ChanceSeedsAboveTwoToThe63RoundTrip) {
  auto game = PlayGame(3, "g-big-seed");
  game.set_chance_seed(0xF00DF00DF00DF00Dull);
  ASSERT_TRUE(Store(game).ok());
  v1::GetReplayRequest request;
  request.set_game_id("g-big-seed");
  v1::Replay replay;
  const grpc::Status s = Call(&v1::Replays::Stub::GetReplay, request, &replay);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(replay.game().chance_seed(), 0xF00DF00DF00DF00Dull);
}

// Verifiable chance (docs/CHANCE.md, CHANCE-6): a version 2 game is stored with
// its seed and commitment and served with both; one whose commitment or dice do
// not check against its seed is refused, and nothing of it is written.
TEST_F(ReplaysTest, AVerifiableGameIsStoredOnlyWhenItsChanceChecks) {
  const chance::Seed seed = chance::DeriveSeed("the replays test's platform key, 32+ bytes", "game/g-v2");
  const chance::Seed other = chance::DeriveSeed("the replays test's platform key, 32+ bytes", "game/other");
  struct Bad {
    const char* what;
    std::function<void(v1::CompletedGameRecord*)> change;
    const char* message;
  } cases[] = {
      {"another commitment",
       [&](v1::CompletedGameRecord* g) {
         g->set_chance_commitment(std::string(chance::AsBytes(chance::CommitTo(other))));
       },
       "game.chance_commitment: not the commitment to game.verifiable_seed"},
      {"another seed, with its own commitment",
       [&](v1::CompletedGameRecord* g) {
         g->set_verifiable_seed(std::string(chance::AsBytes(other)));
         g->set_chance_commitment(std::string(chance::AsBytes(chance::CommitTo(other))));
       },
       "game.actions: action "},
      {"a short seed", [](v1::CompletedGameRecord* g) { g->set_verifiable_seed("short"); },
       "game.verifiable_seed: 5 bytes, not 32"},
      {"a seed without its commitment", [](v1::CompletedGameRecord* g) { g->clear_chance_commitment(); },
       "game.chance_commitment: not the commitment to game.verifiable_seed"},
      {"a known seed beside it", [](v1::CompletedGameRecord* g) { g->set_chance_seed(7); },
       "game.chance_seed: set beside a verifiable seed"},
  };
  int n = 0;
  for (const Bad& c : cases) {
    const std::string id = "g-bad-" + std::to_string(n++);
    v1::CompletedGameRecord game = PlayVerifiableGame(seed, id);
    c.change(&game);
    const grpc::Status s = Store(game);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << c.what;
    EXPECT_EQ(s.error_message().rfind(c.message, 0), 0u) << c.what << ": " << s.error_message();
    v1::GetReplayRequest request;
    request.set_game_id(id);
    v1::Replay replay;
    EXPECT_EQ(Call(&v1::Replays::Stub::GetReplay, request, &replay).error_code(), grpc::StatusCode::NOT_FOUND)
        << c.what << ": something was written";
  }

  ASSERT_TRUE(Store(PlayVerifiableGame(seed, "g-v2")).ok());
  v1::GetReplayRequest request;
  request.set_game_id("g-v2");
  v1::Replay replay;
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetReplay, request, &replay).ok());
  EXPECT_EQ(replay.game().verifiable_seed(), chance::AsBytes(seed));
  EXPECT_EQ(replay.game().chance_commitment(), chance::AsBytes(chance::CommitTo(seed)));
  EXPECT_EQ(replay.game().chance_seed(), 0u);
  v1::ExportGameRequest export_request;
  export_request.set_game_id("g-v2");
  v1::ExportGameResponse exported;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ExportGame, export_request, &exported).ok());
  GameRecord record;
  std::string error;
  ASSERT_TRUE(GameRecordFromJson(exported.record_json(), &record, &error)) << error;
  EXPECT_EQ(record.verifiable_seed, chance::ToHex(seed));
  EXPECT_EQ(record.chance_commitment, chance::ToHex(chance::CommitTo(seed)));
  EXPECT_FALSE(record.seed.has_value());
}

// A tournament's game in the store, as its host hands it over.
v1::CompletedGameRecord InTournament(const std::string& tournament, const std::string& id, uint64_t seed,
                                     int64_t finished_ms = 1'800'000'000'000) {
  auto g = PlayGame(seed, id, "", finished_ms);
  g.set_tournament(tournament);
  return g;
}

class HiddenGamesTest : public ReplaysTest {
 protected:
  grpc::Status Reveal(const std::string& tournament, std::vector<std::string> ids, bool whole = false,
                      const std::string& token = kStoreToken) {
    v1::RevealGamesRequest request;
    request.set_tournament(tournament);
    request.set_whole_tournament(whole);
    for (const std::string& id : ids) request.add_game_ids(id);
    v1::RevealGamesResponse response;
    return Call(&v1::Replays::Stub::RevealGames, request, &response, token);
  }
  // Whether every read that shows a game shows it: GetReplay, GetPosition and
  // ExportGame answer alike (OK, or FAILED_PRECONDITION when hidden), and
  // ListGames lists it (unfiltered, by tournament and by player) exactly then.
  bool Shown(const std::string& id, const std::string& tournament) {
    v1::GetReplayRequest replay_request;
    replay_request.set_game_id(id);
    v1::Replay replay;
    const grpc::Status s = Call(&v1::Replays::Stub::GetReplay, replay_request, &replay);
    EXPECT_TRUE(s.ok() || s.error_code() == grpc::StatusCode::FAILED_PRECONDITION) << s.error_message();
    v1::GetPositionRequest position_request;
    position_request.set_game_id(id);
    position_request.set_step(3);
    position_request.set_viewer(-1);
    v1::PositionResponse position;
    EXPECT_EQ(Call(&v1::Replays::Stub::GetPosition, position_request, &position).error_code(), s.error_code()) << id;
    v1::ExportGameRequest export_request;
    export_request.set_game_id(id);
    v1::ExportGameResponse exported;
    EXPECT_EQ(Call(&v1::Replays::Stub::ExportGame, export_request, &exported).error_code(), s.error_code()) << id;
    for (const std::string& filter : {std::string(), tournament}) {
      v1::ListStoredGamesRequest list;
      list.set_tournament(filter);
      v1::ListStoredGamesResponse listed;
      EXPECT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &listed).ok());
      const bool in_list = std::any_of(listed.games().begin(), listed.games().end(),
                                       [&](const v1::StoredGameSummary& g) { return g.game_id() == id; });
      EXPECT_EQ(in_list, s.ok()) << id << " listed (filter '" << filter << "') while GetReplay says " << s.error_code();
    }
    return s.ok();
  }
};

// A duplicate set's rotations share board, dice and decks: none is shown, by
// any read, until the tournaments service reveals the set; a void attempt the
// reveal does not name never is. Storing before or after the reveal, and
// revealing twice, end the same.
TEST_F(HiddenGamesTest, ATournamentsGameIsHiddenFromEveryReadUntilRevealed) {
  ASSERT_TRUE(Store(PlayGame(10, "g-ladder")).ok());
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-0-1", 11)).ok());
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-0-0", 13)).ok());  // a void attempt
  EXPECT_TRUE(Shown("g-ladder", ""));
  EXPECT_FALSE(Shown("t-dup-0-1", "dup")) << "stored before any reveal";
  EXPECT_FALSE(Shown("t-dup-0-0", "dup"));

  // The set is revealed while its second rotation's game is still on its way
  // to the store (the reveal may come first): it is shown once stored.
  ASSERT_TRUE(Reveal("dup", {"t-dup-0-1", "t-dup-1-1"}).ok());
  EXPECT_TRUE(Shown("t-dup-0-1", "dup"));
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-1-1", 12)).ok());
  EXPECT_TRUE(Shown("t-dup-1-1", "dup"));
  EXPECT_FALSE(Shown("t-dup-0-0", "dup")) << "a void attempt is never shown";

  // The runner retries a reveal whose answer it lost: the same again is OK and
  // changes nothing.
  ASSERT_TRUE(Reveal("dup", {"t-dup-0-1", "t-dup-1-1"}).ok());
  EXPECT_TRUE(Shown("t-dup-1-1", "dup"));
  EXPECT_FALSE(Shown("t-dup-0-0", "dup"));

  // A game id revealed under one tournament shows nothing under another.
  ASSERT_TRUE(Store(InTournament("other", "t-other-0-1", 14)).ok());
  ASSERT_TRUE(Reveal("dup", {"t-other-0-1"}).ok());
  EXPECT_FALSE(Shown("t-other-0-1", "other"));
  // A whole-tournament reveal (formats that hide nothing) shows all its games,
  // stored or to come.
  ASSERT_TRUE(Reveal("other", {}, true).ok());
  EXPECT_TRUE(Shown("t-other-0-1", "other"));
  ASSERT_TRUE(Store(InTournament("other", "t-other-1-1", 15)).ok());
  EXPECT_TRUE(Shown("t-other-1-1", "other"));
  EXPECT_FALSE(Shown("t-dup-0-0", "dup"));
}

// Hidden games do not shorten pages: a page is filled with shown games, and
// paging visits each shown game once.
TEST_F(HiddenGamesTest, PagesAreFilledPastHiddenGames) {
  std::set<std::string> expected;
  for (int i = 0; i < 9; ++i) {
    const std::string id = "g-" + std::to_string(i);
    const int64_t at = 1'800'000'000'000 + i * 1000;
    if (i % 3 == 0) {
      ASSERT_TRUE(Store(PlayGame(100 + uint64_t(i), id, "", at)).ok());
      expected.insert(id);
    } else {
      ASSERT_TRUE(Store(InTournament("dup", id, 100 + uint64_t(i), at)).ok());
    }
  }
  v1::ListStoredGamesRequest request;
  request.set_page_size(2);
  std::set<std::string> seen;
  int pages = 0;
  do {
    v1::ListStoredGamesResponse response;
    ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, request, &response).ok());
    for (const auto& g : response.games()) EXPECT_TRUE(seen.insert(g.game_id()).second) << g.game_id();
    if (!response.next_page_token().empty()) {
      EXPECT_EQ(response.games_size(), 2);
    }
    request.set_page_token(response.next_page_token());
    ++pages;
  } while (!request.page_token().empty() && pages < 10);
  EXPECT_EQ(seen, expected);
  EXPECT_EQ(pages, 2);
}

// Revealing and reading results take the service token; bad requests are
// refused precisely and write nothing. Results include hidden games.
TEST_F(HiddenGamesTest, RevealsAndResultsTakeTheServiceTokenAndCheckTheirInput) {
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-0-1", 11)).ok());
  EXPECT_EQ(Reveal("dup", {"t-dup-0-1"}, false, kReadToken).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  EXPECT_EQ(Reveal("dup", {"t-dup-0-1"}, false, "forged").error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(Reveal("", {"t-dup-0-1"}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Reveal("dup", {}).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  const grpc::Status bad = Reveal("dup", {"t-dup-0-1", "no spaces"});
  EXPECT_EQ(bad.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(bad.error_message(), "game_ids[1]: 'no spaces' is not a game id");
  EXPECT_FALSE(Shown("t-dup-0-1", "dup")) << "a refused reveal wrote something";

  v1::GetResultsRequest request;
  request.add_game_ids("t-dup-0-1");
  request.add_game_ids("t-dup-9-1");  // not stored: left out
  v1::GetResultsResponse response;
  EXPECT_EQ(Call(&v1::Replays::Stub::GetResults, request, &response).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetResults, request, &response, kStoreToken).ok());
  ASSERT_EQ(response.games_size(), 1);
  const auto stored = InTournament("dup", "t-dup-0-1", 11);
  EXPECT_EQ(response.games(0).game_id(), "t-dup-0-1");
  EXPECT_EQ(response.games(0).tournament(), "dup");
  EXPECT_EQ(response.games(0).result().winner(), stored.result().winner());
  EXPECT_EQ(response.games(0).result().vp_size(), stored.result().vp_size());
  EXPECT_EQ(response.games(0).seats_size(), stored.seats_size());
  v1::GetResultsRequest empty;
  EXPECT_EQ(Call(&v1::Replays::Stub::GetResults, empty, &response, kStoreToken).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
}

}  // namespace
}  // namespace metropolis::replays
