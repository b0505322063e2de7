// FormTables: who sits with whom, and when a table of 3 or bots are accepted.
#include "services/matchmaker/matching.h"

#include <gtest/gtest.h>

#include <set>

namespace metropolis::matchmaker {
namespace {

Ticket T(const std::string& id, double rating, int64_t enqueued_ms) { return {id, 0, rating, enqueued_ms, id}; }

std::set<std::string> Ids(const Table& t) { return {t.tickets.begin(), t.tickets.end()}; }

TEST(FormTables, FourCloseTicketsMakeATableAndFarOnesWait) {
  MatchRules rules;
  const std::vector<Ticket> queue = {T("a", 25, 0), T("b", 26, 10), T("c", 24, 20), T("d", 25.5, 30), T("far", 40, 0)};
  const auto tables = FormTables(queue, rules, 1000);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(Ids(tables[0]), (std::set<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(tables[0].bots, 0);
  EXPECT_EQ(tables[0].tickets.front(), "a");  // the oldest first
}

TEST(FormTables, TheWindowWidensWithWaiting) {
  MatchRules rules;  // base 3, +0.5 per second
  const std::vector<Ticket> queue = {T("a", 20, 0), T("b", 30, 0), T("c", 30, 0), T("d", 30, 0)};
  EXPECT_TRUE(FormTables(queue, rules, 1000).empty());     // a gap of 10 > 3.5
  EXPECT_TRUE(FormTables(queue, rules, 13'000).empty());   // 9.5
  EXPECT_EQ(FormTables(queue, rules, 14'000).size(), 1u);  // 10
}

TEST(FormTables, BothSidesMustAcceptTheGap) {
  MatchRules rules;
  // "a" has waited long (wide window), the others just came (window 3).
  const std::vector<Ticket> queue = {T("a", 20, 0), T("b", 30, 60'000), T("c", 30, 60'000), T("d", 30, 60'000)};
  EXPECT_TRUE(FormTables(queue, rules, 60'000).empty());
}

TEST(FormTables, TheNearestInRatingAreChosen) {
  MatchRules rules;
  rules.window_base = 100;
  const std::vector<Ticket> queue = {T("o", 25, 0),  T("n1", 24, 5), T("n2", 26, 5),
                                     T("n3", 27, 5), T("x1", 50, 5), T("x2", 0, 5)};
  const auto tables = FormTables(queue, rules, 100);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(Ids(tables[0]), (std::set<std::string>{"o", "n1", "n2", "n3"}));
}

TEST(FormTables, ManyTablesAndNoTicketTwice) {
  MatchRules rules;
  rules.window_base = 100;
  std::vector<Ticket> queue;
  for (int i = 0; i < 103; ++i) queue.push_back(T("t" + std::to_string(i), i % 17, i));
  const auto tables = FormTables(queue, rules, 1000);
  EXPECT_EQ(tables.size(), 25u);
  std::set<std::string> seen;
  for (const auto& t : tables) {
    EXPECT_EQ(t.tickets.size(), 4u);
    for (const auto& id : t.tickets) EXPECT_TRUE(seen.insert(id).second) << id;
  }
}

TEST(FormTables, TablesOfThreeOnlyAfterTheLaddersWait) {
  MatchRules rules;
  rules.allow_three_after_ms = 30'000;
  const std::vector<Ticket> queue = {T("a", 25, 0), T("b", 25, 0), T("c", 25, 0)};
  EXPECT_TRUE(FormTables(queue, rules, 29'999).empty());
  const auto tables = FormTables(queue, rules, 30'000);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].tickets.size(), 3u);
  EXPECT_EQ(tables[0].bots, 0);
  rules.allow_three_after_ms = -1;
  EXPECT_TRUE(FormTables(queue, rules, 1'000'000).empty());
}

TEST(FormTables, BotsFillWhatIsLeftAfterTheirWait) {
  MatchRules rules;
  rules.bot_fill_after_ms = 60'000;
  const std::vector<Ticket> queue = {T("alone", 25, 0)};
  EXPECT_TRUE(FormTables(queue, rules, 59'999).empty());
  const auto tables = FormTables(queue, rules, 60'000);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].tickets, (std::vector<std::string>{"alone"}));
  EXPECT_EQ(tables[0].bots, 3);
}

TEST(FormTables, ThreeSeatLadders) {
  MatchRules rules;
  rules.seats = 3;
  const std::vector<Ticket> queue = {T("a", 25, 0), T("b", 25, 0), T("c", 25, 0), T("d", 25, 0)};
  const auto tables = FormTables(queue, rules, 10);
  ASSERT_EQ(tables.size(), 1u);
  EXPECT_EQ(tables[0].tickets.size(), 3u);
}

}  // namespace
}  // namespace metropolis::matchmaker
