// The bulk export over HTTP (docs/GATEWAY.md, "Bulk export"): Api against the
// real Replays service on loopback over its in-memory stores, so that the
// hidden-game rule is the service's own. JSON lines of the engine's records,
// the cursor and whether more follow in the headers, a resume that repeats
// and skips nothing, a hidden duplicate set left out until revealed, and the
// refusals naming their parameter.
#include <gtest/gtest.h>

#include <sstream>

#include "services/gateway/api.h"
#include "services/replays/tests/export_fixture.h"

namespace metropolis::gateway {
namespace {

namespace rt = replays::testing;
using rt::Lines;

std::string Header(const HttpResponse& r, const std::string& name) {
  for (const auto& [n, v] : r.headers)
    if (n == name) return v;
  return "<none>";
}

class GatewayExportTest : public rt::ExportFixture {
 protected:
  void SetUp() override {
    rt::ExportFixture::SetUp();
    BackendOptions o;
    o.replays = "127.0.0.1:" + std::to_string(client_->port());
    o.ratings = o.accounts = "127.0.0.1:1";  // nothing here reaches them
    o.service_token = rt::kReadToken;
    backends_ = std::make_unique<Backends>(o);
    api_ = std::make_unique<Api>(nullptr, backends_.get());
  }
  void TearDown() override {
    api_.reset();
    backends_.reset();
    rt::ExportFixture::TearDown();
  }

  HttpResponse Get(std::string_view path, std::string_view query = "") {
    std::string route;
    HttpResponse r = api_->Get(path, query, &route);
    last_route_ = route;
    return r;
  }
  std::unique_ptr<Backends> backends_;
  std::unique_ptr<Api> api_;
  std::string last_route_;
};

TEST_F(GatewayExportTest, ALaddersGamesAsJsonLinesResumedByTheCursorHeader) {
  const std::vector<std::string> all = Records({"g-w0", "g-w1", "g-w2", "g-w3", "g-w4"});
  HttpResponse r = Get("/api/v1/ladders/weekly/games.jsonl");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(last_route_, "/api/v1/ladders/{}/games.jsonl");
  EXPECT_EQ(r.content_type, "application/x-ndjson");
  EXPECT_EQ(Lines(r.body), all);
  EXPECT_EQ(Header(r, "Metropolis-More"), "false");

  // Two games a response, each resumed from the header of the one before.
  std::vector<std::string> paged;
  std::string cursor;
  int responses = 0;
  for (std::string more = "true"; more == "true" && responses < 10; ++responses) {
    r = Get("/api/v1/ladders/weekly/games.jsonl", "limit=2" + (cursor.empty() ? "" : "&cursor=" + cursor));
    ASSERT_EQ(r.status, 200) << r.body;
    for (const std::string& line : Lines(r.body)) paged.push_back(line);
    cursor = Header(r, "Metropolis-Cursor");
    more = Header(r, "Metropolis-More");
  }
  EXPECT_EQ(paged, all);
  EXPECT_EQ(responses, 3);

  // A game stored since: the last cursor gives it alone.
  ASSERT_TRUE(Store(rt::PlayGame(99, "g-w5", "weekly", 1'800'000'009'000)).ok());
  r = Get("/api/v1/ladders/weekly/games.jsonl", "cursor=" + cursor);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Lines(r.body), Records({"g-w5"}));
}

TEST_F(GatewayExportTest, AHiddenDuplicateSetIsLeftOutUntilRevealed) {
  HttpResponse r = Get("/api/v1/tournaments/dup/games.jsonl");
  EXPECT_EQ(r.status, 404) << r.body;
  EXPECT_EQ(r.body.find("t-dup"), std::string::npos) << "a hidden game's id leaked: " << r.body;
  const HttpResponse unknown = Get("/api/v1/tournaments/nobody-heard/games.jsonl");
  EXPECT_EQ(unknown.status, 404) << unknown.body;

  ASSERT_TRUE(RevealIds("dup", {"t-dup-0-1", "t-dup-1-1"}).ok());
  r = Get("/api/v1/tournaments/dup/games.jsonl", "limit=1");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(last_route_, "/api/v1/tournaments/{}/games.jsonl");
  EXPECT_EQ(Lines(r.body), Records({"t-dup-0-1"}));
  EXPECT_EQ(Header(r, "Metropolis-More"), "true");
  r = Get("/api/v1/tournaments/dup/games.jsonl", "limit=1&cursor=" + Header(r, "Metropolis-Cursor"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Lines(r.body), Records({"t-dup-1-1"}));
  EXPECT_EQ(Header(r, "Metropolis-More"), "false") << "the hidden void attempt was counted";
}

TEST_F(GatewayExportTest, RefusalsNameTheParameter) {
  const auto parameter = [&](std::string_view path, std::string_view query, int status) {
    const HttpResponse r = Get(path, query);
    EXPECT_EQ(r.status, status) << path << "?" << query << ": " << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    return Json::parse(r.body)["error"].value("parameter", "");
  };
  EXPECT_EQ(parameter("/api/v1/ladders/weekly/games.jsonl", "cursor=garbage", 400), "cursor");
  EXPECT_EQ(parameter("/api/v1/ladders/weekly/games.jsonl", "limit=501", 400), "limit");
  EXPECT_EQ(parameter("/api/v1/ladders/weekly/games.jsonl", "page_token=x", 400), "page_token");
  EXPECT_EQ(parameter("/api/v1/ladders/Not%20A%20Ladder/games.jsonl", "", 400), "ladder");
  EXPECT_EQ(parameter("/api/v1/ladders/nobody-plays/games.jsonl", "", 404), "");
}

}  // namespace
}  // namespace metropolis::gateway
