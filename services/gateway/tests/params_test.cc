#include "services/gateway/params.h"

#include <gtest/gtest.h>

namespace metropolis::gateway {
namespace {

TEST(UrlDecode, EscapesAndPlus) {
  std::string out;
  ASSERT_TRUE(UrlDecode("a%20b+c%2Fd", true, &out));
  EXPECT_EQ(out, "a b c/d");
  ASSERT_TRUE(UrlDecode("a+b", false, &out));
  EXPECT_EQ(out, "a+b");
  EXPECT_FALSE(UrlDecode("%2", true, &out));
  EXPECT_FALSE(UrlDecode("%", true, &out));
  EXPECT_FALSE(UrlDecode("%zz", true, &out));
  EXPECT_FALSE(UrlDecode("a%00b", true, &out));                      // NUL never reaches a name or a file
  EXPECT_FALSE(UrlDecode(std::string_view("a\0b", 3), true, &out));  // nor a raw one (found by gateway_query_fuzz)
}

TEST(Query, ParsesAndTypes) {
  Query q;
  ApiError e;
  ASSERT_TRUE(Query::Parse("limit=20&q=al%69ce&from_start=true&&", &q, &e));
  EXPECT_EQ(q.Get("q"), "alice");
  int64_t limit = 0;
  ASSERT_TRUE(q.Int("limit", 50, 1, 100, &limit, &e));
  EXPECT_EQ(limit, 20);
  int64_t offset = -1;
  ASSERT_TRUE(q.Int("offset", 7, 0, 100, &offset, &e));
  EXPECT_EQ(offset, 7);
  bool b = false;
  ASSERT_TRUE(q.Bool("from_start", false, &b, &e));
  EXPECT_TRUE(b);
  EXPECT_TRUE(q.OnlyThese({"limit", "q", "from_start"}, &e));
}

TEST(Query, ErrorsNameTheParameter) {
  Query q;
  ApiError e;
  ASSERT_TRUE(Query::Parse("limit=1000&offset=x&flag=maybe", &q, &e));
  int64_t v;
  EXPECT_FALSE(q.Int("limit", 50, 1, 100, &v, &e));
  EXPECT_EQ(e.http, 400);
  EXPECT_EQ(e.parameter, "limit");
  EXPECT_EQ(e.message, "limit: '1000' is not an integer in 1..100");
  EXPECT_FALSE(q.Int("offset", 0, 0, 100, &v, &e));
  EXPECT_EQ(e.parameter, "offset");
  bool b;
  EXPECT_FALSE(q.Bool("flag", false, &b, &e));
  EXPECT_EQ(e.parameter, "flag");

  EXPECT_FALSE(q.OnlyThese({"limit", "offset"}, &e));
  EXPECT_EQ(e.parameter, "flag");
  EXPECT_EQ(e.message, "flag: unknown parameter (this endpoint reads limit, offset)");

  EXPECT_FALSE(Query::Parse("a=1&a=2", &q, &e));
  EXPECT_EQ(e.parameter, "a");
  EXPECT_EQ(e.message, "a: given more than once");
  EXPECT_FALSE(Query::Parse("q=%zz", &q, &e));
  EXPECT_EQ(e.parameter, "q");
  EXPECT_FALSE(Query::Parse(std::string(kMaxQueryLength + 1, 'a'), &q, &e));
  EXPECT_EQ(e.http, 414);
}

TEST(Query, EmptyValueCountsAsGiven) {
  Query q;
  ApiError e;
  ASSERT_TRUE(Query::Parse("q=&limit", &q, &e));
  EXPECT_TRUE(q.Has("q"));
  EXPECT_TRUE(q.Has("limit"));
  int64_t v;
  EXPECT_FALSE(q.Int("limit", 5, 1, 10, &v, &e));  // "" is not an integer
}

TEST(MatchRoute, SegmentsAndCaptures) {
  std::vector<std::string> args;
  EXPECT_TRUE(MatchRoute("/api/v1/games/{}/positions/{}", "/api/v1/games/g-1/positions/40", &args));
  EXPECT_EQ(args, (std::vector<std::string>{"g-1", "40"}));
  EXPECT_TRUE(MatchRoute("/api/v1/ladders", "/api/v1/ladders", &args));
  EXPECT_TRUE(args.empty());
  EXPECT_FALSE(MatchRoute("/api/v1/ladders", "/api/v1/ladders/", &args));
  EXPECT_FALSE(MatchRoute("/api/v1/ladders/{}", "/api/v1/ladders/", &args));  // empty capture
  EXPECT_FALSE(MatchRoute("/api/v1/ladders/{}", "/api/v1/ladders/a/b", &args));
  EXPECT_FALSE(MatchRoute("/api/v1/games/{}", "/api/v1/gamez/x", &args));
}

TEST(Ids, AsTheServicesDefineThem) {
  EXPECT_TRUE(ValidLadderId("open"));
  EXPECT_TRUE(ValidLadderId("c-k_4"));
  EXPECT_FALSE(ValidLadderId("Open"));
  EXPECT_FALSE(ValidLadderId("-open"));
  EXPECT_FALSE(ValidLadderId(""));
  EXPECT_FALSE(ValidLadderId(std::string(65, 'a')));
  EXPECT_TRUE(ValidGameId("g-0001_x"));
  EXPECT_FALSE(ValidGameId("g.1"));
  EXPECT_FALSE(ValidGameId("../etc"));
  EXPECT_TRUE(ValidTournamentId("Spring-Cup_2"));
  EXPECT_TRUE(ValidTournamentId(std::string(40, 'a')));
  EXPECT_FALSE(ValidTournamentId(std::string(41, 'a')));
  EXPECT_FALSE(ValidTournamentId(""));
  EXPECT_FALSE(ValidTournamentId("a.b"));
  EXPECT_TRUE(ValidPlayerName("Alice.B-2_x"));
  EXPECT_FALSE(ValidPlayerName("alice bob"));
  EXPECT_FALSE(ValidPlayerName(std::string(65, 'a')));
}

TEST(NameSearchSpellings, TypedLowerAndCapitalised) {
  EXPECT_EQ(NameSearchSpellings("aLi"), (std::vector<std::string>{"aLi", "ali", "Ali"}));
  EXPECT_EQ(NameSearchSpellings("ali"), (std::vector<std::string>{"ali", "Ali"}));
  EXPECT_EQ(NameSearchSpellings("7"), (std::vector<std::string>{"7"}));
}

}  // namespace
}  // namespace metropolis::gateway
