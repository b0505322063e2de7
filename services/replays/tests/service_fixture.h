// What the replays service's tests share over whichever stores a fixture builds
// (the fakes in replays_test.cc, PostgreSQL in replays_pg_test.cc): the logic and
// its gRPC service on a loopback port over those stores, and the calls the tests
// make through it, with tokens and statuses as a caller's.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/auth/tests/fake_account_lookup.h"
#include "lib/auth/token_authenticator.h"
#include "services/replays/replays.h"
#include "services/replays/service.h"
#include "services/replays/tests/client.h"

namespace metropolis::replays::testing {

class ReplaysServiceTest : public ::testing::Test {
 protected:
  // Serves the logic over `store` and `reveals`, which outlive the fixture's
  // TearDown. A reader's token is a service token here; account tokens are the
  // accounts' tests' business.
  void Serve(ReplayStore* store, RevealStore* reveals) {
    auth_ = std::make_unique<auth::TokenAuthenticator>(
        &accounts_, std::vector<std::pair<std::string, std::string>>{
                        {kStoreToken, "gamehost"}, {kReadToken, "reader"}, {kGatewayToken, "gateway"}});
    replays_ = std::make_unique<Replays>(store, reveals);
    service_ = std::make_unique<ReplaysService>(replays_.get(), auth_.get());
    client_ = std::make_unique<ReplaysClient>(service_.get());
    ASSERT_NE(client_->port(), 0);
  }
  // The server stops before the stores go.
  void TearDown() override { client_.reset(); }

  grpc::Status Store(const v1::CompletedGameRecord& g, v1::StoreGameResponse* out = nullptr,
                     const std::string& token = kStoreToken) {
    return client_->Store(g, out, token);
  }
  template <typename Request, typename Response, typename Method>
  grpc::Status Call(Method method, const Request& request, Response* response, const std::string& token = kReadToken) {
    return client_->Call(method, request, response, token);
  }
  // GetReplay of one game.
  grpc::Status GetReplay(const std::string& game_id, v1::Replay* out, const std::string& token = kReadToken) {
    v1::GetReplayRequest request;
    request.set_game_id(game_id);
    return Call(&v1::Replays::Stub::GetReplay, request, out, token);
  }
  grpc::Status Confirm(const std::string& token, const std::string& game_id, const std::string& digest,
                       bool* confirmed) {
    return client_->Confirm(token, game_id, digest, confirmed);
  }

  // ExportGames: one page.
  grpc::Status ExportPage(const std::string& ladder, const std::string& tournament, const std::string& cursor,
                          uint32_t page_size, v1::ExportGamesResponse* out, const std::string& token = kReadToken) {
    v1::ExportGamesRequest request;
    request.set_ladder(ladder);
    request.set_tournament(tournament);
    request.set_cursor(cursor);
    request.set_page_size(page_size);
    return Call(&v1::Replays::Stub::ExportGames, request, out, token);
  }
  // ExportGames from `cursor` to the end, following next_cursor page by page
  // (at most 50 pages): the games' ids in order; *pages counts the pages.
  std::vector<std::string> ExportIds(const std::string& ladder, const std::string& tournament, uint32_t page_size,
                                     std::string cursor = "", int* pages = nullptr) {
    std::vector<std::string> ids;
    for (int n = 1; n <= 50; ++n) {
      v1::ExportGamesResponse page;
      const grpc::Status s = ExportPage(ladder, tournament, cursor, page_size, &page);
      EXPECT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
      if (!s.ok()) break;
      for (const auto& g : page.games()) ids.push_back(g.game_id());
      if (pages) *pages = n;
      if (!page.games().empty()) {
        EXPECT_EQ(page.next_cursor(), page.games(page.games_size() - 1).cursor());
      }
      if (!page.more()) break;
      EXPECT_EQ(page.games_size(), int(page_size)) << "a page before the last one is full";
      cursor = page.next_cursor();
    }
    return ids;
  }
  grpc::Status RevealIds(const std::string& tournament, const std::vector<std::string>& ids) {
    v1::RevealGamesRequest request;
    request.set_tournament(tournament);
    for (const std::string& id : ids) request.add_game_ids(id);
    v1::RevealGamesResponse response;
    return Call(&v1::Replays::Stub::RevealGames, request, &response, kStoreToken);
  }

  // The bulk export over whichever stores the fixture serves (replays.proto,
  // ExportGames), with `game(seed, id, ladder, tournament, finished_ms)` a
  // finished game to store: a ladder's games oldest first, each record
  // ExportGame's, resumed by any game's cursor exactly after it; a
  // tournament's duplicate set left out until revealed (its void attempt
  // always), without a trace in the pages; games stored since a cursor was
  // given come after it.
  template <typename MakeGame>
  void CheckBulkExport(MakeGame game) {
    const int64_t t0 = 1'800'000'000'000;
    // Ladder "weekly": five games, two of them finished at the same instant
    // (the id breaks the tie), stored out of order; another ladder's game.
    const std::vector<std::pair<std::string, int64_t>> weekly = {
        {"g-w3", t0 + 3000}, {"g-w1", t0 + 1000}, {"g-w2b", t0 + 2000}, {"g-w2a", t0 + 2000}, {"g-w4", t0 + 4000}};
    uint64_t seed = 40;
    for (const auto& [id, at] : weekly) ASSERT_TRUE(Store(game(seed++, id, "weekly", "", at)).ok()) << id;
    ASSERT_TRUE(Store(game(seed++, "g-daily", "daily", "", t0 + 1500)).ok());
    const std::vector<std::string> order = {"g-w1", "g-w2a", "g-w2b", "g-w3", "g-w4"};
    int pages = 0;
    EXPECT_EQ(ExportIds("weekly", "", 2, "", &pages), order);
    EXPECT_EQ(pages, 3);
    EXPECT_EQ(ExportIds("weekly", "", 500), order);

    // Each game's record is ExportGame's; each cursor resumes right after its game.
    v1::ExportGamesResponse all;
    ASSERT_TRUE(ExportPage("weekly", "", "", 0, &all).ok());
    ASSERT_EQ(all.games_size(), 5);
    EXPECT_FALSE(all.more());
    for (int i = 0; i < all.games_size(); ++i) {
      const v1::ExportedGame& g = all.games(i);
      v1::ExportGameRequest one;
      one.set_game_id(g.game_id());
      v1::ExportGameResponse exported;
      ASSERT_TRUE(Call(&v1::Replays::Stub::ExportGame, one, &exported).ok());
      EXPECT_EQ(g.record_json(), exported.record_json()) << g.game_id();
      EXPECT_EQ(g.record_json().find('\n'), std::string::npos) << "a record is one line";
      const std::vector<std::string> rest(order.begin() + i + 1, order.end());
      EXPECT_EQ(ExportIds("weekly", "", 2, g.cursor()), rest) << "after " << g.game_id();
    }

    // Games stored after the export's last page: a resume from its cursor
    // gives exactly them, and nothing more.
    ASSERT_TRUE(Store(game(seed++, "g-w5", "weekly", "", t0 + 5000)).ok());
    ASSERT_TRUE(Store(game(seed++, "g-w6", "weekly", "", t0 + 6000)).ok());
    EXPECT_EQ(ExportIds("weekly", "", 1, all.next_cursor()), (std::vector<std::string>{"g-w5", "g-w6"}));

    // A duplicate set of tournament "dup": two rotations, and void attempts
    // before and after them. Nothing of "dup" shows before its reveal: the
    // same NOT_FOUND as a tournament nobody heard of.
    ASSERT_TRUE(Store(game(seed++, "t-dup-9-0", "", "dup", t0 + 1000)).ok());
    ASSERT_TRUE(Store(game(seed++, "t-dup-0-1", "", "dup", t0 + 1200)).ok());
    ASSERT_TRUE(Store(game(seed++, "t-dup-1-1", "", "dup", t0 + 1300)).ok());
    ASSERT_TRUE(Store(game(seed++, "t-dup-0-0", "", "dup", t0 + 1400)).ok());
    v1::ExportGamesResponse page;
    const grpc::Status hidden = ExportPage("", "dup", "", 10, &page);
    const grpc::Status unknown = ExportPage("", "nobody-heard", "", 10, &page);
    EXPECT_EQ(hidden.error_code(), grpc::StatusCode::NOT_FOUND) << hidden.error_message();
    EXPECT_EQ(unknown.error_code(), grpc::StatusCode::NOT_FOUND);
    EXPECT_EQ(page.games_size(), 0);

    // Revealed: the two rotations, a page at a time; the page of the last says
    // no more (the void attempt after it is not counted).
    ASSERT_TRUE(RevealIds("dup", {"t-dup-0-1", "t-dup-1-1"}).ok());
    EXPECT_EQ(ExportIds("", "dup", 1), (std::vector<std::string>{"t-dup-0-1", "t-dup-1-1"}));
    v1::ExportGamesResponse first, second, end;
    ASSERT_TRUE(ExportPage("", "dup", "", 1, &first).ok());
    ASSERT_EQ(first.games_size(), 1);
    EXPECT_TRUE(first.more());
    ASSERT_TRUE(ExportPage("", "dup", first.next_cursor(), 1, &second).ok());
    ASSERT_EQ(second.games_size(), 1);
    EXPECT_EQ(second.games(0).game_id(), "t-dup-1-1");
    EXPECT_FALSE(second.more()) << "the hidden void attempt was counted";
    ASSERT_TRUE(ExportPage("", "dup", second.next_cursor(), 1, &end).ok()) << "an export at its end is OK";
    EXPECT_EQ(end.games_size(), 0);
    EXPECT_FALSE(end.more());
    EXPECT_EQ(end.next_cursor(), second.next_cursor());
    for (const auto& g : ExportIds("weekly", "", 500)) EXPECT_EQ(g.rfind("t-", 0), std::string::npos) << g;
  }

  // The debug channel (debug_checks.h), with `identity(name)` a new identity
  // the store knows: stored apart from the game and outside its digest, read
  // only through GetDebug by whom it belongs to, hidden with its game, bounded.
  void CheckDebugChannel(const std::function<int64_t(const std::string&)>& identity);

  // API tokens of identities (players, bots, administrators) the tests issue.
  auth::testing::FakeAccountLookup accounts_;
  std::unique_ptr<auth::TokenAuthenticator> auth_;
  std::unique_ptr<Replays> replays_;
  std::unique_ptr<ReplaysService> service_;
  std::unique_ptr<ReplaysClient> client_;
};

}  // namespace metropolis::replays::testing
