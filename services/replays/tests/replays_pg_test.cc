// The replays service against a real PostgreSQL (label integration): what
// only the database shows — a game stored once and read back as it was, keyset
// paging in its order, the 64-bit seeds in a signed BIGINT, the digest kept in
// games.digest (and computed once for games stored before that column), the
// reveals' table, games' analyses kept once and found again after a restart, the bulk
// export's order and its hidden duplicate set. The logic's cases run over in-memory
// stores in replays_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <pqxx/pqxx>
#include <set>

#include "engine/game.h"
#include "lib/auth/token_authenticator.h"
#include "lib/chance/chance.h"
#include "lib/chance/verifiable.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/tests/test_database.h"
#include "services/replays/analysis_worker.h"
#include "services/replays/digest.h"
#include "services/replays/pg_analysis_store.h"
#include "services/replays/pg_replay_rows.h"
#include "services/replays/pg_replay_store.h"
#include "services/replays/pg_reveal_store.h"
#include "services/replays/prepare.h"
#include "services/replays/replays.h"
#include "services/replays/service.h"
#include "services/replays/tests/client.h"
#include "services/replays/tests/debug_checks.h"
#include "services/replays/tests/fake_analysis_store.h"
#include "services/replays/tests/games.h"
#include "services/replays/tests/service_fixture.h"
#include "services/replays/turns_backfill.h"

namespace metropolis::replays {
namespace {

class ReplaysTest : public testing::ReplaysServiceTest {
 protected:
  void SetUp() override {
    pool_ = storage::testing::MigratedPool(database_, METROPOLIS_MIGRATIONS_DIR, 4);
    ASSERT_NE(pool_, nullptr);
    store_ = std::make_unique<PgReplayStore>(pool_.get());
    reveals_ = std::make_unique<PgRevealStore>(pool_.get());
    Serve(store_.get(), reveals_.get());
  }

  int StoredGames() {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    return tx.exec1("SELECT count(*) FROM games")[0].as<int>();
  }

  storage::testing::TestDatabase database_;
  std::unique_ptr<storage::PgPool> pool_;
  std::unique_ptr<PgReplayStore> store_;
  std::unique_ptr<PgRevealStore> reveals_;
};

using testing::InTournament;
using testing::kStoreToken;
using testing::PlayGame;
using testing::PlayVerifiableGame;

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

  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-one", &replay).ok());
  EXPECT_EQ(replay.game().actions_size(), game.actions_size());
  EXPECT_TRUE(std::equal(game.actions().begin(), game.actions().end(), replay.game().actions().begin()));
  EXPECT_EQ(replay.game().seats_size(), game.seats_size());
  EXPECT_EQ(replay.game().result().winner(), game.result().winner());
  EXPECT_EQ(replay.game().finished_unix_ms(), game.finished_unix_ms());
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
  ASSERT_TRUE(Confirm(kStoreToken, "g-old", other, &confirmed).ok());
  EXPECT_FALSE(confirmed);
  EXPECT_EQ(column("g-old"), stored.digest());  // computed, written in
  ASSERT_TRUE(Confirm(kStoreToken, "g-old", stored.digest(), &confirmed).ok());
  EXPECT_TRUE(confirmed);
  // Kept from then on: a digest put in the column is what ConfirmGame answers by.
  {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec_params("UPDATE games SET digest = $1 WHERE id = 'g-old'", other);
    tx.commit();
  }
  ASSERT_TRUE(Confirm(kStoreToken, "g-old", other, &confirmed).ok());
  EXPECT_TRUE(confirmed);
  // StoreGame again for a game without the column's digest computes it too.
  EXPECT_EQ(column("g-old-b"), "NULL");
  v1::StoreGameResponse again;
  ASSERT_TRUE(Store(PlayGame(7, "g-old-b", "open"), &again).ok());
  EXPECT_TRUE(again.already_stored());
  EXPECT_EQ(again.digest(), stored_b.digest());
  EXPECT_EQ(column("g-old-b"), stored_b.digest());
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

// PostgreSQL's BIGINT is signed: a seed of 2^63 or more is stored negative
// and must come back as it was.
TEST_F(ReplaysTest, ChanceSeedsAboveTwoToThe63RoundTrip) {
  auto game = PlayGame(3, "g-big-seed");
  game.set_chance_seed(0xF00DF00DF00DF00Dull);
  ASSERT_TRUE(Store(game).ok());
  v1::Replay replay;
  const grpc::Status s = GetReplay("g-big-seed", &replay);
  ASSERT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(replay.game().chance_seed(), 0xF00DF00DF00DF00Dull);
}

// The digest StoreGame returns, computed from the record before anything is
// written, is the digest of what the tables hold once it is: for a ladder
// game, a tournament's, a verifiable one, and seats' fallbacks and forfeits.
TEST_F(ReplaysTest, TheDigestOfTheRecordIsTheDigestOfWhatTheTablesHold) {
  auto ladder = PlayGame(21, "g-rows-ladder", "weekly");
  ladder.mutable_seats(1)->set_fallback_decisions(3);
  ladder.mutable_seats(0)->set_forfeited(true);
  const chance::Seed seed = chance::DeriveSeed("the replays test's platform key, 32+ bytes", "game/g-rows-v2");
  const v1::CompletedGameRecord games[] = {ladder, InTournament("dup", "g-rows-dup", 22),
                                           PlayVerifiableGame(seed, "g-rows-v2")};
  for (const v1::CompletedGameRecord& game : games) {
    PreparedGame prepared;
    const grpc::Status prepared_ok = PrepareRecord(game, &prepared);
    ASSERT_TRUE(prepared_ok.ok()) << game.game_id() << ": " << prepared_ok.error_message();
    v1::StoreGameResponse stored;
    ASSERT_TRUE(Store(game, &stored).ok()) << game.game_id();
    EXPECT_EQ(stored.digest(), prepared.digest) << game.game_id();
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    StoredGame read;
    ASSERT_TRUE(ReadStoredGame(tx, game.game_id(), &read)) << game.game_id();
    EXPECT_EQ(GameDigest(read), stored.digest()) << game.game_id() << ":\n" << CanonicalEncoding(read);
  }
}

// Migration 0070: who played each seat (SeatRecord.kind) is stored and read back
// by GetReplay and ListGames. A seat stored without it (a record from a host
// before the field, or a row from before the column) reads UNSPECIFIED, and its
// game's digest is what it always was: the encoding has no kind line for it.
TEST_F(ReplaysTest, SeatKindsRoundTripAndSeatsWithoutOneKeepTheirDigest) {
  auto game = PlayGame(24, "g-kinds");
  game.mutable_seats(0)->set_kind(v1::SEAT_KIND_NETWORK);  // no identity, over the network
  game.mutable_seats(1)->set_kind(v1::SEAT_KIND_BUILT_IN);
  v1::StoreGameResponse stored;
  ASSERT_TRUE(Store(game, &stored).ok());
  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-kinds", &replay).ok());
  ASSERT_EQ(replay.game().seats_size(), game.seats_size());
  EXPECT_EQ(replay.game().seats(0).kind(), v1::SEAT_KIND_NETWORK);
  EXPECT_EQ(replay.game().seats(1).kind(), v1::SEAT_KIND_BUILT_IN);
  EXPECT_EQ(replay.game().seats(2).kind(), v1::SEAT_KIND_UNSPECIFIED);
  v1::ListStoredGamesRequest list;
  v1::ListStoredGamesResponse page;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).seats(0).kind(), v1::SEAT_KIND_NETWORK);
  EXPECT_EQ(page.games(0).seats(1).kind(), v1::SEAT_KIND_BUILT_IN);
  pqxx::connection db(database_.conninfo());
  pqxx::work tx(db);
  StoredGame read;
  ASSERT_TRUE(ReadStoredGame(tx, "g-kinds", &read));
  EXPECT_EQ(GameDigest(read), stored.digest()) << CanonicalEncoding(read);
  // The same game without kinds: the digest of a game stored before them.
  auto old = game;
  for (auto& seat : *old.mutable_seats()) seat.clear_kind();
  PreparedGame before;
  ASSERT_TRUE(PrepareRecord(old, &before).ok());
  EXPECT_NE(before.digest, stored.digest());
  tx.exec("UPDATE game_seats SET kind = NULL");  // as stored before migration 0070
  ASSERT_TRUE(ReadStoredGame(tx, "g-kinds", &read));
  EXPECT_EQ(CanonicalEncoding(read).find("\nkind "), std::string::npos);
  EXPECT_EQ(GameDigest(read), before.digest);
}

// Migration 0096: a resigned game's seat is stored, read back by GetReplay and
// ListGames, and part of its digest; a game nobody resigned has no such line.
TEST_F(ReplaysTest, AResignedGameRoundTripsWithItsSeatInTheDigest) {
  const auto game = testing::PlayResignedGame(33, "g-resigned", 1, 250);
  v1::StoreGameResponse stored;
  ASSERT_TRUE(Store(game, &stored).ok());
  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-resigned", &replay).ok());
  EXPECT_EQ(replay.game().result().reason(), v1::END_REASON_RESIGNED);
  ASSERT_TRUE(replay.game().result().has_resigned_seat());
  EXPECT_EQ(replay.game().result().resigned_seat(), 1u);
  v1::ListStoredGamesRequest list;
  v1::ListStoredGamesResponse page;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).result().resigned_seat(), 1u);
  pqxx::connection db(database_.conninfo());
  pqxx::work tx(db);
  StoredGame read;
  ASSERT_TRUE(ReadStoredGame(tx, "g-resigned", &read));
  EXPECT_EQ(read.resigned_seat, 1);
  EXPECT_NE(CanonicalEncoding(read).find("\nresigned_seat 1\n"), std::string::npos);
  EXPECT_EQ(GameDigest(read), stored.digest());
  // Another seat in the column is another digest: the resignation is covered.
  tx.exec("UPDATE games SET resigned_seat = 0");
  ASSERT_TRUE(ReadStoredGame(tx, "g-resigned", &read));
  EXPECT_NE(GameDigest(read), stored.digest());
}

// Migration 0095: the turns a game took are stored from the replay, not from
// the record's claim, and read back by GetReplay and ListGames; a game stored
// before the column reads 0 (not known).
TEST_F(ReplaysTest, TurnsComeFromTheReplayAndAreListed) {
  auto game = PlayGame(25, "g-turns");
  const uint32_t turns = game.result().turns();
  ASSERT_GT(turns, 10u);
  game.mutable_result()->set_turns(0);  // a record that does not say
  ASSERT_TRUE(Store(game).ok());
  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-turns", &replay).ok());
  EXPECT_EQ(replay.game().result().turns(), turns);
  v1::ListStoredGamesRequest list;
  v1::ListStoredGamesResponse page;
  ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).result().turns(), turns);
  {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec("UPDATE games SET turns = NULL");  // as stored before migration 0095
    tx.commit();
  }
  ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).result().turns(), 0u);
  // A starting server counts them from the replay (turns_backfill.h), and the
  // game's digest stays the one it was stored with.
  v1::StoreGameResponse again;
  ASSERT_TRUE(Store(game, &again).ok());
  std::atomic<bool> stop{false};
  TurnsBackfilled done;
  ASSERT_TRUE(BackfillTurns(store_.get(), stop, &done).ok());
  EXPECT_EQ(done.filled, 1);
  EXPECT_EQ(done.failed, 0);
  ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &page).ok());
  EXPECT_EQ(page.games(0).result().turns(), turns);
  pqxx::connection db(database_.conninfo());
  pqxx::work tx(db);
  StoredGame read;
  ASSERT_TRUE(ReadStoredGame(tx, "g-turns", &read));
  EXPECT_EQ(GameDigest(read), again.digest());
  done = {};
  ASSERT_TRUE(BackfillTurns(store_.get(), stop, &done).ok());
  EXPECT_EQ(done.filled, 0) << "a game whose turns are known is not counted again";
}

// game_analyses (docs/ANALYSIS.md): an analysis is kept once, a second write
// keeps the first; an analysis of no stored game is NOT_FOUND; the games still
// owed are those with an identity at the table and no analysis, newest first,
// within the look-back; a worker that starts analyses them.
TEST_F(ReplaysTest, AnalysesAreKeptOnceAndAStartingWorkerFindsTheGamesItOwes) {
  int64_t ana = 0;
  {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    ana = tx.exec1("INSERT INTO identities (kind, name) VALUES ('player', 'ana') RETURNING id")[0].as<int64_t>();
    tx.commit();
  }
  auto with_ana = [&](uint64_t seed, const std::string& id, int64_t finished_ms) {
    auto g = PlayGame(seed, id, "", finished_ms);
    g.mutable_seats(1)->set_identity_id(ana);
    g.mutable_seats(1)->set_name("ana");
    g.mutable_seats(1)->set_kind(v1::SEAT_KIND_NETWORK);
    return g;
  };
  const int64_t now =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  ASSERT_TRUE(Store(with_ana(31, "g-old", now - 30LL * 24 * 3600 * 1000)).ok());  // before the look-back
  ASSERT_TRUE(Store(with_ana(32, "g-a", now - 2000)).ok());
  ASSERT_TRUE(Store(with_ana(33, "g-b", now - 1000)).ok());
  ASSERT_TRUE(Store(PlayGame(34, "g-bots", "", now - 500)).ok());  // nobody with an identity

  PgAnalysisStore analyses(pool_.get());
  std::vector<Unanalysed> owed;
  ASSERT_TRUE(analyses.Missing(now - 7LL * 24 * 3600 * 1000, 10, &owed).ok());
  ASSERT_EQ(owed.size(), 2u);
  EXPECT_EQ(owed[0].game_id, "g-b");  // newest first
  EXPECT_EQ(owed[1].game_id, "g-a");
  EXPECT_EQ(owed[0].identity_ids, std::vector<int64_t>{ana});
  EXPECT_EQ(owed[0].names, std::vector<std::string>{"ana"});

  ASSERT_TRUE(analyses.Put("g-a", {"{\"first\":1}", 1, 0.25, 0}).ok());
  ASSERT_TRUE(analyses.Put("g-a", {"{\"second\":2}", 1, 0.5, 0}).ok());
  StoredAnalysis read;
  bool found = false;
  ASSERT_TRUE(analyses.Get("g-a", &read, &found).ok());
  ASSERT_TRUE(found);
  EXPECT_EQ(read.json, "{\"first\":1}");
  EXPECT_EQ(read.cpu_seconds, 0.25);
  EXPECT_GT(read.analysed_unix_ms, now - 60'000);
  EXPECT_EQ(analyses.Put("g-nothing", {"{}", 1, 0, 0}).error_code(), grpc::StatusCode::NOT_FOUND);
  ASSERT_TRUE(analyses.Get("g-b", &read, &found).ok());
  EXPECT_FALSE(found);
  bool is_owed = false;
  ASSERT_TRUE(analyses.Owed("g-b", &is_owed).ok());
  EXPECT_TRUE(is_owed);
  ASSERT_TRUE(analyses.Owed("g-a", &is_owed).ok());
  EXPECT_FALSE(is_owed);  // analysed
  ASSERT_TRUE(analyses.Owed("g-bots", &is_owed).ok());
  EXPECT_FALSE(is_owed);  // nobody with an identity
  // A game whose only identity is the host's built-in bot is owed nothing; a
  // skipped one neither, and a starting worker leaves both alone.
  auto built_in = with_ana(36, "g-built-in", now - 300);
  built_in.mutable_seats(1)->set_kind(v1::SEAT_KIND_BUILT_IN);
  ASSERT_TRUE(Store(built_in).ok());
  ASSERT_TRUE(analyses.Owed("g-built-in", &is_owed).ok());
  EXPECT_FALSE(is_owed);
  ASSERT_TRUE(Store(with_ana(37, "g-skipped", now - 200)).ok());
  ASSERT_TRUE(analyses.Skip("g-skipped", "no_person").ok());
  ASSERT_TRUE(analyses.Skip("g-skipped", "dropped").ok());  // idempotent: the first stays
  ASSERT_TRUE(analyses.Owed("g-skipped", &is_owed).ok());
  EXPECT_FALSE(is_owed);
  EXPECT_EQ(analyses.Skip("g-nothing", "dropped").error_code(), grpc::StatusCode::NOT_FOUND);
  owed.clear();
  ASSERT_TRUE(analyses.Missing(now - 7LL * 24 * 3600 * 1000, 10, &owed).ok());
  ASSERT_EQ(owed.size(), 1u);
  EXPECT_EQ(owed[0].game_id, "g-b");

  // A worker starting now owes g-b (ana is a person) and analyses it.
  testing::FakePeople people;
  people.people = {ana};
  AnalysisWorkerOptions options;
  options.analysis.positions = 5;
  options.analysis.search_iterations = 10;
  AnalysisWorker worker(store_.get(), &analyses, &people, nullptr, options);
  worker.Start();
  for (int i = 0; i < 120'000 && !found; ++i) {
    ASSERT_TRUE(analyses.Get("g-b", &read, &found).ok());
    if (!found) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  worker.Stop();
  ASSERT_TRUE(found);
  EXPECT_TRUE(read.json.starts_with("{\"luck\":")) << read.json.substr(0, 60);
  EXPECT_EQ(read.method_version, analysis::kAnalysisMethodVersion);

  // Ana's luck over her analysed games: g-b (g-a's row is no analysis of this
  // method and has no luck account); a tournament's game counts once revealed.
  LuckTotals luck;
  ASSERT_TRUE(analyses.Luck(ana, &luck).ok());
  EXPECT_EQ(luck.games, 1u);
  EXPECT_GE(luck.place, 1);
  EXPECT_LE(luck.adjusted_place, 4);
  // A game of ana's in a tournament, stored with g-b's analysis.
  auto store_analysed = [&](uint64_t seed, const std::string& id, int64_t finished_ms, const std::string& tournament) {
    auto game = with_ana(seed, id, finished_ms);
    game.set_tournament(tournament);
    ASSERT_TRUE(Store(game).ok());
    ASSERT_TRUE(analyses.Put(id, read).ok());
  };
  ASSERT_NO_FATAL_FAILURE(store_analysed(35, "g-t", now - 100, "t-luck"));
  ASSERT_TRUE(analyses.Luck(ana, &luck).ok());
  EXPECT_EQ(luck.games, 1u);
  ASSERT_TRUE(reveals_->Add("t-luck", false, {"g-other"}).ok());  // another game of the tournament
  ASSERT_TRUE(analyses.Luck(ana, &luck).ok());
  EXPECT_EQ(luck.games, 1u);
  ASSERT_TRUE(reveals_->Add("t-luck", false, {"g-t"}).ok());
  ASSERT_TRUE(analyses.Luck(ana, &luck).ok());
  EXPECT_EQ(luck.games, 2u);
  ASSERT_NO_FATAL_FAILURE(store_analysed(38, "g-w", now - 50, "t-whole"));
  ASSERT_TRUE(analyses.Luck(ana, &luck).ok());
  EXPECT_EQ(luck.games, 2u);
  ASSERT_TRUE(reveals_->Add("t-whole", true, {}).ok());  // the whole tournament
  ASSERT_TRUE(analyses.Luck(ana, &luck).ok());
  EXPECT_EQ(luck.games, 3u);
  ASSERT_TRUE(analyses.Luck(ana + 1000, &luck).ok());
  EXPECT_EQ(luck.games, 0u);
}

// A seat's identity is a foreign key: one the database does not know is the
// caller's mistake, and nothing of the game is written.
TEST_F(ReplaysTest, ASeatOfAnUnknownIdentityIsRefused) {
  auto game = PlayGame(23, "g-stranger");
  game.mutable_seats(0)->set_identity_id(987654321);
  const grpc::Status s = Store(game);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(s.error_message(), "store game: a seat's identity_id is not a known identity");
  EXPECT_EQ(StoredGames(), 0);
}

// game_reveals round trip: reveals by id and for a whole tournament, added
// twice, read back by the listing and the reads; results carry the seats'
// outcome for hidden games too.
TEST_F(ReplaysTest, RevealsAndResultsRoundTripThroughTheTables) {
  auto hidden = InTournament("dup", "t-dup-0-0", 31);
  hidden.mutable_seats(2)->set_forfeited(true);
  hidden.mutable_seats(1)->set_fallback_decisions(4);
  ASSERT_TRUE(Store(hidden).ok());
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-0-1", 32, 1'800'000'001'000)).ok());
  ASSERT_TRUE(Store(InTournament("open", "t-open-0-1", 33, 1'800'000'002'000)).ok());
  auto listed = [&] {
    std::vector<std::string> ids;
    v1::ListStoredGamesRequest request;
    v1::ListStoredGamesResponse response;
    EXPECT_TRUE(Call(&v1::Replays::Stub::ListGames, request, &response).ok());
    for (const auto& g : response.games()) ids.push_back(g.game_id());
    return ids;
  };
  EXPECT_EQ(listed(), std::vector<std::string>{});
  for (int twice = 0; twice < 2; ++twice) {
    v1::RevealGamesRequest by_id;
    by_id.set_tournament("dup");
    by_id.add_game_ids("t-dup-0-1");
    by_id.add_game_ids("t-dup-1-1");
    v1::RevealGamesRequest whole;
    whole.set_tournament("open");
    whole.set_whole_tournament(true);
    v1::RevealGamesResponse response;
    ASSERT_TRUE(Call(&v1::Replays::Stub::RevealGames, by_id, &response, kStoreToken).ok());
    ASSERT_TRUE(Call(&v1::Replays::Stub::RevealGames, whole, &response, kStoreToken).ok());
  }
  EXPECT_EQ(listed(), (std::vector<std::string>{"t-open-0-1", "t-dup-0-1"}));
  v1::GetReplayRequest request;
  request.set_game_id("t-dup-0-0");
  v1::Replay replay;
  EXPECT_EQ(Call(&v1::Replays::Stub::GetReplay, request, &replay).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  request.set_game_id("t-dup-0-1");
  EXPECT_TRUE(Call(&v1::Replays::Stub::GetReplay, request, &replay).ok());

  v1::GetResultsRequest results;
  results.add_game_ids("t-dup-0-0");
  results.add_game_ids("t-dup-9-9");  // not stored: left out
  v1::GetResultsResponse response;
  ASSERT_TRUE(Call(&v1::Replays::Stub::GetResults, results, &response, kStoreToken).ok());
  ASSERT_EQ(response.games_size(), 1);
  ASSERT_EQ(response.games(0).seats_size(), hidden.seats_size());
  EXPECT_TRUE(response.games(0).seats(2).forfeited());
  EXPECT_EQ(response.games(0).seats(1).fallback_decisions(), 4u);
  EXPECT_EQ(response.games(0).result().winner(), hidden.result().winner());
}

// The bulk export in the tables' order (finished time, then id, ascending),
// the reveals read from game_reveals: see CheckBulkExport.
TEST_F(ReplaysTest, BulkExportGivesEachShownGameOnceOldestFirstAndLeavesOutAHiddenDuplicateSet) {
  CheckBulkExport([](uint64_t seed, const std::string& id, const std::string& ladder, const std::string& tournament,
                     int64_t finished_ms) {
    auto g = PlayGame(seed, id, ladder, finished_ms);
    g.set_tournament(tournament);
    return g;
  });
}

// The debug channel in game_debug, seats' identities from game_seats: see CheckDebugChannel.
TEST_F(ReplaysTest, DebugIsStoredApartAndReadOnlyByItsBotsAuthors) {
  CheckDebugChannel([&](const std::string& name) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    const int64_t id =
        tx.exec_params1("INSERT INTO identities (kind, name) VALUES ('player', $1) RETURNING id", name)[0]
            .as<int64_t>();
    tx.commit();
    return id;
  });
}

}  // namespace
}  // namespace metropolis::replays
