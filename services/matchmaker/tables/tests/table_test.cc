// Friends' tables (tables/table.h, tables.h) over the in-memory store: the
// settings a creator may choose, who joins and starts, the seating drawn from
// a round's seed, rematches, expiry, and that a change which lost a race is
// applied again to the table that won it.
#include <gtest/gtest.h>

#include <algorithm>

#include "services/matchmaker/tables/tables.h"
#include "services/matchmaker/tables/tests/fake_table_store.h"

namespace metropolis::matchmaker::tables {
namespace {

using testing::FakeTableStore;

const Member kAna{1, "ana"}, kBo{2, "bo"}, kCy{3, "cy"}, kDi{4, "di"}, kEd{5, "ed"};

class TablesTest : public ::testing::Test {
 protected:
  TablesTest()
      : tables_(
            &store_, {.ttl_ms = 60'000, .max_attempts = 8}, [this] { return NextId(); }, [this] { return ++seeds_; }) {}
  std::string NextId() {
    const std::string n = std::to_string(++ids_);
    return "table" + std::string(7 - n.size(), '0') + n;
  }

  FriendsTable Created(TableSettings settings = {}) {
    FriendsTable t;
    const grpc::Status s = tables_.Create(kAna, settings, &t);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return t;
  }

  FakeTableStore store_;
  Tables tables_;
  int ids_ = 0;
  uint64_t seeds_ = 1000;
};

TEST_F(TablesTest, SettingsOutsideTheRulesAreRefusedNamingTheField) {
  const auto refused = [&](TableSettings s, const std::string& field) {
    FriendsTable t;
    const grpc::Status status = tables_.Create(kAna, s, &t);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << field;
    EXPECT_NE(status.error_message().find(field), std::string::npos) << status.error_message();
  };
  TableSettings s;
  s.ruleset = "seafarers";
  refused(s, "ruleset 'seafarers'");
  s = {};
  s.seats = 5;
  refused(s, "settings.seats");
  s = {};
  s.bot = "oracle";
  refused(s, "settings.bot");
  s = {};
  s.decision_ms = 1000;
  refused(s, "settings.decision_ms");
  s = {};
  s.time_bank_ms = 4'000'000;
  refused(s, "settings.time_bank_ms");
  s = {};
  s.options = "no_such_option=1";
  refused(s, "no_such_option");
  s = {};
  s.spectator_delay_ms = 90'000;  // a minute and a half: not whole minutes
  refused(s, "settings.spectator_delay_ms");
  EXPECT_EQ(store_.swaps, 0);
  FriendsTable t;
  EXPECT_EQ(tables_.Get("table0000001", &t).error_code(), grpc::StatusCode::NOT_FOUND) << "nothing was stored";
}

TEST_F(TablesTest, ATableIsStoredAsItWasMadeAndReadBack) {
  TableSettings s;
  s.ruleset = "base";
  s.seats = 3;
  s.bot = "random";
  s.decision_ms = 20'000;
  s.time_bank_ms = 0;
  s.ladder = "casual";
  s.spectator_delay_ms = 120'000;
  const FriendsTable made = Created(s);
  FriendsTable read;
  ASSERT_TRUE(tables_.Get(made.id, &read).ok());
  EXPECT_EQ(Encode(read), Encode(made));
  EXPECT_EQ(read.members.size(), 1u);
  EXPECT_EQ(read.members[0].name, "ana");
  EXPECT_EQ(read.settings.spectator_delay_ms, 120'000u);
  EXPECT_EQ(read.state, TableState::kOpen);
}

TEST_F(TablesTest, FriendsJoinUntilTheSeatsAreTaken) {
  const FriendsTable t = Created();
  FriendsTable now;
  ASSERT_TRUE(tables_.Join(t.id, kBo, &now).ok());
  ASSERT_TRUE(tables_.Join(t.id, kBo, &now).ok()) << "joining again changes nothing";
  ASSERT_TRUE(tables_.Join(t.id, kCy, &now).ok());
  ASSERT_TRUE(tables_.Join(t.id, kDi, &now).ok());
  EXPECT_EQ(now.members.size(), 4u);
  const grpc::Status full = tables_.Join(t.id, kEd, &now);
  EXPECT_EQ(full.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  EXPECT_EQ(full.error_message(), "table " + t.id + " is full (4 of 4 seats taken)");
  ASSERT_TRUE(tables_.Leave(t.id, kCy.identity_id, &now).ok());
  EXPECT_EQ(now.members.size(), 3u);
  EXPECT_EQ(tables_.Leave(t.id, kAna.identity_id, &now).error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << "the creator cannot leave";
  EXPECT_TRUE(tables_.Join(t.id, kEd, &now).ok()) << "a seat that was left is free again";
}

TEST_F(TablesTest, UnknownMalformedAndExpiredTablesSaySo) {
  FriendsTable t;
  EXPECT_EQ(tables_.Join("nope", kBo, &t).error_message(), "table id 'nope' is not 12 letters and digits");
  EXPECT_EQ(tables_.Join("abcdefghijk9", kBo, &t).error_message(), "table abcdefghijk9 does not exist or has expired");
  const FriendsTable made = Created();
  store_.now_ms += 60'000;  // the table's ttl since its last change
  EXPECT_EQ(tables_.Join(made.id, kBo, &t).error_code(), grpc::StatusCode::NOT_FOUND);
}

// A round's game may last hours: its table (its spectator delay, its members'
// rematch) stays while it is played, and goes when its longer ttl has passed.
TEST_F(TablesTest, AStartedTableOutlivesTheOpenTablesTtl) {
  const FriendsTable made = Created();
  FriendsTable t;
  ASSERT_TRUE(tables_.BeginStart(made.id, kAna.identity_id, 0, &t).ok());
  store_.now_ms += 60'000;  // an open table's ttl
  ASSERT_TRUE(tables_.Get(made.id, &t).ok()) << "a started table went with the open table's ttl";
  store_.now_ms += 12 * 3600 * 1000;
  EXPECT_EQ(tables_.Get(made.id, &t).error_code(), grpc::StatusCode::NOT_FOUND);
}

TEST_F(TablesTest, OnlyTheCreatorStartsAndTheSeatingComesFromTheRoundsSeed) {
  const FriendsTable made = Created();
  FriendsTable t;
  ASSERT_TRUE(tables_.Join(made.id, kBo, &t).ok());
  EXPECT_EQ(tables_.BeginStart(made.id, kBo.identity_id, 0, &t).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  ASSERT_TRUE(tables_.BeginStart(made.id, kAna.identity_id, 0, &t).ok());
  EXPECT_EQ(t.state, TableState::kStarting);
  EXPECT_EQ(t.round, 1u);
  ASSERT_EQ(t.seating.size(), 4u);
  std::vector<int64_t> seated = t.seating;
  std::sort(seated.begin(), seated.end());
  EXPECT_EQ(seated, (std::vector<int64_t>{0, 0, 1, 2})) << "each member once, the table's bot in the rest";
  // The same seed seats the same way (a start taken over, another replica).
  FriendsTable copy = NewTable(made.id, kAna, made.settings);
  bool changed = false;
  ASSERT_TRUE(Join(&copy, kBo, &changed).ok());
  ASSERT_TRUE(BeginStart(&copy, kAna.identity_id, t.seed, 0).ok());
  EXPECT_EQ(copy.seating, t.seating);
  // A second start is refused; the joins are over.
  EXPECT_EQ(tables_.BeginStart(made.id, kAna.identity_id, 1, &t).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  EXPECT_EQ(tables_.Join(made.id, kCy, &t).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
}

TEST_F(TablesTest, AStalledStartIsTakenOverAsItWasSeated) {
  const FriendsTable made = Created();
  FriendsTable t, again;
  ASSERT_TRUE(tables_.Join(made.id, kBo, &t).ok());
  ASSERT_TRUE(tables_.BeginStart(made.id, kAna.identity_id, 1'000, &t).ok());
  EXPECT_EQ(tables_.BeginStart(made.id, kBo.identity_id, 1'000 + kStartTimeoutMs - 1, &again).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION)
      << "not before the start timeout";
  ASSERT_TRUE(tables_.BeginStart(made.id, kBo.identity_id, 1'000 + kStartTimeoutMs, &again).ok());
  EXPECT_EQ(again.round, t.round);
  EXPECT_EQ(again.seed, t.seed);
  EXPECT_EQ(again.seating, t.seating);
}

TEST_F(TablesTest, AGameStartsOnceAndARematchIsTheNextRound) {
  const FriendsTable made = Created();
  FriendsTable t;
  ASSERT_TRUE(tables_.Join(made.id, kBo, &t).ok());
  ASSERT_TRUE(tables_.BeginStart(made.id, kAna.identity_id, 0, &t).ok());
  EXPECT_EQ(tables_.MarkStarted(made.id, 2, "g-x", "h:1", &t).error_code(), grpc::StatusCode::FAILED_PRECONDITION);
  ASSERT_TRUE(tables_.MarkStarted(made.id, 1, "g-1", "h:1", &t).ok());
  EXPECT_EQ(t.state, TableState::kPlaying);
  EXPECT_EQ(t.game_id, "g-1");
  EXPECT_EQ(tables_.MarkStarted(made.id, 1, "g-other", "h:2", &t).error_code(), grpc::StatusCode::FAILED_PRECONDITION)
      << "a second game for the round";
  EXPECT_EQ(tables_.BeginRematch(made.id, kCy.identity_id, 1, 0, &t).error_code(), grpc::StatusCode::PERMISSION_DENIED);
  const uint64_t first_seed = t.seed;
  ASSERT_TRUE(tables_.BeginRematch(made.id, kBo.identity_id, 1, 0, &t).ok());
  EXPECT_EQ(t.round, 2u);
  EXPECT_EQ(t.state, TableState::kStarting);
  EXPECT_NE(t.seed, first_seed) << "a new board and new dice";
  EXPECT_TRUE(t.game_id.empty());
  EXPECT_EQ(tables_.BeginRematch(made.id, kAna.identity_id, 1, 0, &t).error_code(),
            grpc::StatusCode::FAILED_PRECONDITION)
      << "two rematches of round 1 make one";
}

TEST_F(TablesTest, AChangeThatLostARaceIsAppliedToTheTableThatWon) {
  TableSettings three;
  three.seats = 3;
  const FriendsTable made = Created(three);
  FriendsTable t;
  ASSERT_TRUE(tables_.Join(made.id, kBo, &t).ok());
  // Di reads the table (one seat free); before she writes, Cy takes that seat.
  store_.before_swap = [&] {
    FriendsTable cy;
    ASSERT_TRUE(tables_.Join(made.id, kCy, &cy).ok());
  };
  const grpc::Status di = tables_.Join(made.id, kDi, &t);
  EXPECT_EQ(di.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << "her change is tried on the table as it is now";
  EXPECT_EQ(tables_.retries(), 1);
  ASSERT_TRUE(tables_.Get(made.id, &t).ok());
  ASSERT_EQ(t.members.size(), 3u);
  EXPECT_EQ(t.members[2].name, "cy");
}

TEST_F(TablesTest, AnUnreadableStoredTableIsDataLoss) {
  const FriendsTable made = Created();
  bool swapped = false;
  std::string value;
  bool found = false;
  ASSERT_TRUE(store_.Get(made.id, &value, &found).ok());
  ASSERT_TRUE(store_.Swap(made.id, value, "{\"id\":", 60'000, &swapped).ok() && swapped);
  FriendsTable t;
  EXPECT_EQ(tables_.Join(made.id, kBo, &t).error_code(), grpc::StatusCode::DATA_LOSS);
}

}  // namespace
}  // namespace metropolis::matchmaker::tables
