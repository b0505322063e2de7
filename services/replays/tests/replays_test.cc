// The replays service's logic and wiring over in-memory stores (no database):
// storing returns the digest ConfirmGame confirms; malformed and unauthorised
// requests are refused with precise statuses and store nothing; any step of a
// stored game and its export; verifiable chance; tournaments' hidden games;
// the bulk export of a ladder's or a tournament's games.
// What only PostgreSQL can show is in replays_pg_test.cc.
#include "services/replays/replays.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "engine/game.h"
#include "lib/auth/tests/fake_account_lookup.h"
#include "lib/auth/token_authenticator.h"
#include "lib/chance/chance.h"
#include "lib/chance/verifiable.h"
#include "lib/protocol/convert.h"
#include "services/replays/service.h"
#include "services/replays/tests/client.h"
#include "services/replays/tests/debug_checks.h"
#include "services/replays/tests/fake_replay_store.h"
#include "services/replays/tests/fake_reveal_store.h"
#include "services/replays/tests/games.h"
#include "services/replays/tests/service_fixture.h"
#include "services/replays/turns_backfill.h"

namespace metropolis::replays {
namespace {

using testing::InTournament;
using testing::kReadToken;
using testing::kStoreToken;
using testing::PlayGame;
using testing::PlayVerifiableGame;

class ReplaysTest : public testing::ReplaysServiceTest {
 protected:
  void SetUp() override { Serve(&store_, &reveals_); }

  int StoredGames() { return int(store_.size()); }

  testing::FakeReplayStore store_;
  testing::FakeRevealStore reveals_;
};

// Games stored before their turns were counted get them from their replay
// (turns_backfill.h); one that does not replay is counted as failed, left
// unknown and not met again; the others are set once.
TEST_F(ReplaysTest, TheBackfillCountsTheTurnsOfGamesStoredWithout) {
  std::vector<uint32_t> turns;
  for (int i = 0; i < 3; ++i) {
    const auto game = PlayGame(40 + i, "g-old-" + std::to_string(i));
    turns.push_back(game.result().turns());
    ASSERT_TRUE(Store(game).ok());
  }
  store_.ForgetTurns("g-old-0");
  store_.ForgetTurns("g-old-2");
  store_.DropLastActions("g-old-2", 10);  // no longer replays to its end
  std::atomic<bool> stop{false};
  TurnsBackfilled done;
  ASSERT_TRUE(BackfillTurns(&store_, stop, &done, /*batch=*/1).ok());
  EXPECT_EQ(done.filled, 1);
  EXPECT_EQ(done.failed, 1);
  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-old-0", &replay).ok());
  EXPECT_EQ(replay.game().result().turns(), turns[0]);
  ASSERT_TRUE(GetReplay("g-old-1", &replay).ok());
  EXPECT_EQ(replay.game().result().turns(), turns[1]);
  std::vector<std::string> left;
  ASSERT_TRUE(store_.GamesWithoutTurns("", 10, &left).ok());
  EXPECT_EQ(left, std::vector<std::string>{"g-old-2"});
  store_.unavailable = true;
  done = {};
  EXPECT_EQ(BackfillTurns(&store_, stop, &done).error_code(), grpc::StatusCode::UNAVAILABLE);
}

// docs/RESULTS.md: the digest is of what is stored, the same when the game is
// stored again, and Replays confirms exactly that digest for that game.
// END_REASON_RESIGNED: a game that ends where a seat resigned is stored and
// read back as such; a resignation the record cannot back is refused, and
// nothing is stored.
TEST_F(ReplaysTest, AResignedGameIsStoredAndABadResignationRefused) {
  using testing::PlayResignedGame;
  const auto game = PlayResignedGame(31, "g-resigned", 2, 300);
  ASSERT_TRUE(Store(game).ok());
  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-resigned", &replay).ok());
  EXPECT_EQ(replay.game().result().reason(), v1::END_REASON_RESIGNED);
  EXPECT_EQ(replay.game().result().resigned_seat(), 2u);
  EXPECT_EQ(replay.game().actions_size(), 300);

  auto refused = [&](v1::CompletedGameRecord g, const std::string& wanted) {
    g.set_game_id("g-bad-resign");
    const grpc::Status s = Store(g);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << wanted;
    EXPECT_EQ(s.error_message(), wanted);
  };
  auto g = game;
  g.mutable_result()->set_resigned_seat(7);
  refused(g, "game.result.resigned_seat: not a seat of the game");
  g = game;
  g.mutable_result()->clear_resigned_seat();
  refused(g, "game.result.resigned_seat: not a seat of the game");
  g = game;
  g.mutable_seats(2)->set_forfeited(false);
  refused(g, "game.seats: the seat that resigned (2) is not forfeited");
  g = game;
  g.mutable_result()->set_winner(0);
  refused(g, "game.result.winner: a resigned game has no winner");
  // A game the engine ended cannot have been resigned, and a resigned seat
  // needs the reason.
  g = PlayGame(31, "x");
  g.mutable_result()->set_reason(v1::END_REASON_RESIGNED);
  g.mutable_result()->set_resigned_seat(0);
  g.mutable_seats(0)->set_forfeited(true);
  refused(g, "game.result: claims a resignation, but the game was over after the last action");
  g = PlayGame(31, "x");
  g.mutable_result()->set_resigned_seat(0);
  refused(g, "game.result.resigned_seat: set for a game nobody resigned");
  // Cut short without a resignation: not over.
  g = game;
  g.mutable_result()->set_reason(v1::END_REASON_WON);
  g.mutable_result()->clear_resigned_seat();
  refused(g, "game.actions: the game is not over after the last action");
  EXPECT_EQ(StoredGames(), 1);
}

// GameResult.turns is the replay's, whatever the record claims, in the stored
// game and in listings (a record claiming none, or too many).
TEST_F(ReplaysTest, TurnsAreTheReplaysNotTheRecordsClaim) {
  for (uint32_t claimed : {0u, 100000u}) {
    const std::string id = "g-turns-" + std::to_string(claimed);
    auto game = PlayGame(26, id);
    const uint32_t turns = game.result().turns();
    ASSERT_GT(turns, 10u);
    game.mutable_result()->set_turns(claimed);
    ASSERT_TRUE(Store(game).ok());
    v1::Replay replay;
    ASSERT_TRUE(GetReplay(id, &replay).ok());
    EXPECT_EQ(replay.game().result().turns(), turns);
    v1::ListStoredGamesRequest list;
    v1::ListStoredGamesResponse page;
    ASSERT_TRUE(Call(&v1::Replays::Stub::ListGames, list, &page).ok());
    ASSERT_GE(page.games_size(), 1);
    const auto listed = std::find_if(page.games().begin(), page.games().end(),
                                     [&](const v1::StoredGameSummary& g) { return g.game_id() == id; });
    ASSERT_NE(listed, page.games().end());
    EXPECT_EQ(listed->result().turns(), turns);
  }
}

TEST_F(ReplaysTest, StoringReturnsTheStoredGamesDigestWhichConfirmGameConfirms) {
  const auto game = PlayGame(4, "g-digest", "open");
  v1::StoreGameResponse first, second;
  ASSERT_TRUE(Store(game, &first).ok());
  ASSERT_EQ(first.digest().size(), 64u) << first.digest();
  EXPECT_FALSE(first.already_stored());
  EXPECT_GT(first.compact_bytes(), 0u);
  EXPECT_LT(first.compact_bytes(), uint32_t(game.actions_size()));  // under a byte per action
  ASSERT_TRUE(Store(game, &second).ok());
  ASSERT_TRUE(second.already_stored());
  // The second digest is the one the store kept (that PostgreSQL keeps the
  // digest of what its tables hold: replays_pg_test.cc).
  EXPECT_EQ(second.digest(), first.digest());
  EXPECT_EQ(StoredGames(), 1);

  bool confirmed = false;
  ASSERT_TRUE(Confirm(kStoreToken, "g-digest", first.digest(), &confirmed).ok());
  EXPECT_TRUE(confirmed);
  std::string other = first.digest();
  other[0] = other[0] == '0' ? '1' : '0';
  ASSERT_TRUE(Confirm(kReadToken, "g-digest", other, &confirmed).ok());
  EXPECT_FALSE(confirmed);

  // Another game's digest does not confirm this one.
  v1::StoreGameResponse stored_b;
  ASSERT_TRUE(Store(PlayGame(5, "g-digest-b", "open"), &stored_b).ok());
  EXPECT_NE(stored_b.digest(), first.digest());
  ASSERT_TRUE(Confirm(kStoreToken, "g-digest", stored_b.digest(), &confirmed).ok());
  EXPECT_FALSE(confirmed);

  EXPECT_EQ(Confirm(kStoreToken, "g-unknown", first.digest(), &confirmed).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(Confirm(kStoreToken, "g-digest", "ABC", &confirmed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(Confirm("forged", "g-digest", first.digest(), &confirmed).error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

// A player's valid API token may read replays but not confirm digests.
TEST_F(ReplaysTest, OnlyServiceTokensMayConfirmADigest) {
  auth::testing::FakeAccountLookup accounts;
  const std::string player_token = accounts.Issue({.identity_id = 7, .name = "reader1", .kind = "player"});
  auth::TokenAuthenticator auth(&accounts, {{kStoreToken, "gamehost"}});
  ReplaysService service(replays_.get(), &auth);
  testing::ReplaysClient client(&service);
  ASSERT_NE(client.port(), 0);
  v1::StoreGameResponse stored;
  ASSERT_TRUE(Store(PlayGame(6, "g-token"), &stored).ok());
  v1::GetReplayRequest request;
  request.set_game_id("g-token");
  v1::Replay replay;
  ASSERT_TRUE(client.Call(&v1::Replays::Stub::GetReplay, request, &replay, player_token).ok());
  bool confirmed = true;
  EXPECT_EQ(client.Confirm(player_token, "g-token", stored.digest(), &confirmed).error_code(),
            grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(client.Confirm(kStoreToken, "g-token", stored.digest(), &confirmed).ok());
  EXPECT_TRUE(confirmed);
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

  auto kind = game;
  kind.mutable_seats(0)->set_kind(v1::SeatKind(9));  // no such kind: unreadable to the readers
  EXPECT_EQ(Store(kind).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(StoredGames(), 0);

  v1::Replay replay;
  EXPECT_EQ(GetReplay("g-missing", &replay).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::ListStoredGamesRequest list;
  list.set_page_token("garbage");
  v1::ListStoredGamesResponse listed;
  EXPECT_EQ(Call(&v1::Replays::Stub::ListGames, list, &listed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  list.set_page_token("");
  list.set_page_size(501);
  EXPECT_EQ(Call(&v1::Replays::Stub::ListGames, list, &listed).error_code(), grpc::StatusCode::INVALID_ARGUMENT);
}

// A store that cannot be reached is UNAVAILABLE to every call (the caller
// retries), and nothing is stored meanwhile.
TEST_F(ReplaysTest, AStoreThatIsDownIsUnavailableToEveryCall) {
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-0-1", 11)).ok());
  store_.unavailable = true;
  EXPECT_EQ(Store(PlayGame(3, "g-down")).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::Replay replay;
  EXPECT_EQ(GetReplay("t-dup-0-1", &replay).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::ListStoredGamesRequest list;
  v1::ListStoredGamesResponse listed;
  EXPECT_EQ(Call(&v1::Replays::Stub::ListGames, list, &listed).error_code(), grpc::StatusCode::UNAVAILABLE);
  bool confirmed = false;
  EXPECT_EQ(Confirm(kStoreToken, "t-dup-0-1", std::string(64, '0'), &confirmed).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  v1::GetResultsRequest results;
  results.add_game_ids("t-dup-0-1");
  v1::GetResultsResponse results_response;
  EXPECT_EQ(Call(&v1::Replays::Stub::GetResults, results, &results_response, kStoreToken).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  store_.unavailable = false;
  EXPECT_EQ(StoredGames(), 1);

  // The reveals too: a tournament's game is then neither shown nor listed.
  reveals_.unavailable = true;
  EXPECT_EQ(GetReplay("t-dup-0-1", &replay).error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(Call(&v1::Replays::Stub::ListGames, list, &listed).error_code(), grpc::StatusCode::UNAVAILABLE);
  v1::RevealGamesRequest reveal;
  reveal.set_tournament("dup");
  reveal.set_whole_tournament(true);
  v1::RevealGamesResponse revealed;
  EXPECT_EQ(Call(&v1::Replays::Stub::RevealGames, reveal, &revealed, kStoreToken).error_code(),
            grpc::StatusCode::UNAVAILABLE);
  reveals_.unavailable = false;
  EXPECT_EQ(reveals_.size(), 0u);
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
  EXPECT_EQ(StoredGames(), 0);

  ASSERT_TRUE(Store(PlayVerifiableGame(seed, "g-v2")).ok());
  v1::Replay replay;
  ASSERT_TRUE(GetReplay("g-v2", &replay).ok());
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

// The negative control "hidden_games" (docs/FAILURES.md) is shown failing by
// these: with METROPOLIS_REMOVE_PROTECTION=hidden_games every hidden game is
// served and listed.
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
    v1::Replay replay;
    const grpc::Status s = GetReplay(id, &replay);
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
  EXPECT_EQ(reveals_.size(), 0u);

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

// A finished game for CheckBulkExport (service_fixture.h).
v1::CompletedGameRecord ExportableGame(uint64_t seed, const std::string& id, const std::string& ladder,
                                       const std::string& tournament, int64_t finished_ms) {
  auto g = PlayGame(seed, id, ladder, finished_ms);
  g.set_tournament(tournament);
  return g;
}

// The negative control "hidden_games" fails this too: the duplicate set shows
// before its reveal.
TEST_F(ReplaysTest, BulkExportGivesEachShownGameOnceOldestFirstAndLeavesOutAHiddenDuplicateSet) {
  CheckBulkExport(ExportableGame);
}

// Bad requests are refused with precise statuses before anything is read;
// NOT_FOUND for a ladder or tournament without a shown game; a store that is
// down is UNAVAILABLE, and no token no export.
TEST_F(ReplaysTest, BulkExportRefusesBadRequestsPrecisely) {
  ASSERT_TRUE(Store(PlayGame(20, "g-e1", "weekly", 1'800'000'000'000)).ok());
  ASSERT_TRUE(Store(PlayGame(21, "g-e2", "weekly", 1'800'000'001'000)).ok());
  v1::ExportGamesResponse page;
  const auto refused = [&](const std::string& ladder, const std::string& tournament, const std::string& cursor,
                           uint32_t page_size) {
    page.Clear();
    const grpc::Status s = ExportPage(ladder, tournament, cursor, page_size, &page);
    EXPECT_EQ(page.games_size(), 0);
    return s.error_code() == grpc::StatusCode::INVALID_ARGUMENT ? s.error_message() : "not INVALID_ARGUMENT";
  };
  EXPECT_EQ(refused("", "", "", 0), "ladder, tournament: exactly one of the two is required");
  EXPECT_EQ(refused("weekly", "dup", "", 0), "ladder, tournament: exactly one of the two is required");
  EXPECT_EQ(refused("weekly", "", "", 501), "page_size: at most 500");
  EXPECT_EQ(refused(std::string(65, 'w'), "", "", 0), "ladder: 1 to 64 bytes, no control characters");
  for (const std::string bad : {"x", "e", "e1800000000000", "e/g-e1", "eabc/g-e1", "e1800000000000/no spaces",
                                "1800000000000/g-e1" /* a ListGames page token */})
    EXPECT_EQ(refused("weekly", "", bad, 0), "cursor: not a cursor this service gave") << bad;

  EXPECT_EQ(ExportPage("nobody-plays", "", "", 0, &page).error_code(), grpc::StatusCode::NOT_FOUND);
  v1::ExportGamesResponse first;
  ASSERT_TRUE(ExportPage("weekly", "", "", 1, &first).ok());
  // A real cursor on a ladder without games: NOT_FOUND, not an empty end.
  EXPECT_EQ(ExportPage("nobody-plays", "", first.next_cursor(), 0, &page).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(ExportPage("weekly", "", first.next_cursor(), 0, &page, "forged").error_code(),
            grpc::StatusCode::UNAUTHENTICATED);
  store_.unavailable = true;
  EXPECT_EQ(ExportPage("weekly", "", first.next_cursor(), 0, &page).error_code(), grpc::StatusCode::UNAVAILABLE);
  store_.unavailable = false;
  reveals_.unavailable = true;
  ASSERT_TRUE(Store(InTournament("dup", "t-dup-0-1", 22)).ok());
  EXPECT_EQ(ExportPage("", "dup", "", 0, &page).error_code(), grpc::StatusCode::UNAVAILABLE);
  reveals_.unavailable = false;
  ASSERT_TRUE(ExportPage("weekly", "", first.next_cursor(), 0, &page).ok());
  ASSERT_EQ(page.games_size(), 1);
  EXPECT_EQ(page.games(0).game_id(), "g-e2");
}

// The debug channel over the fakes: see CheckDebugChannel (any identity is known).
TEST_F(ReplaysTest, DebugIsStoredApartAndReadOnlyByItsBotsAuthors) {
  int64_t next = 100;
  CheckDebugChannel([&](const std::string&) { return next++; });
}

}  // namespace
}  // namespace metropolis::replays
