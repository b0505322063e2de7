// A game's debug notes for the signed-in person through the play API
// (debug_notes.h): whom the gateway names to Replays (the person and their
// bots, no one else), what another person gets, the download, and what
// Replays' answers become, over a fake of GetDebug that keeps its rule
// (replays.proto: the seats of the identities named; PERMISSION_DENIED when
// none is seated, FAILED_PRECONDITION for a hidden game, NOT_FOUND unknown).
#include "services/gateway/debug_notes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "lib/common/tests/fake_clock.h"
#include "services/gateway/backends.h"
#include "services/gateway/play_api.h"
#include "services/gateway/response_layer.h"
#include "services/gateway/tests/people_fakes.h"

namespace metropolis::gateway {
namespace {

// The bots each person owns; only ListBots is called for the notes.
class OwnedBots : public BotStore {
 public:
  grpc::Status CreateBot(int64_t, const std::string&, OwnBot*) override { return Unused(); }
  grpc::Status ListBots(int64_t person, OwnBots* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "the accounts database is down"};
    out->bots = owned[person];
    return grpc::Status::OK;
  }
  grpc::Status IssueToken(int64_t, const std::string&, const std::string&, int64_t*, std::string*) override {
    return Unused();
  }
  grpc::Status ListTokens(int64_t, const std::string&, std::vector<BotTokenInfo>*) override { return Unused(); }
  grpc::Status RevokeToken(int64_t, const std::string&, int64_t) override { return Unused(); }
  static grpc::Status Unused() { return {grpc::StatusCode::UNIMPLEMENTED, "not for the notes"}; }

  std::map<int64_t, std::vector<OwnBot>> owned;
  bool down = false;
};

// Stored games: each seat's identity, and the debug the host stored by seat.
class FakeDebugSource : public DebugSource {
 public:
  struct Game {
    std::vector<int64_t> seats;  // identity by seat
    std::vector<v1::SeatDebug> debug;
    bool hidden = false;
  };

  grpc::Status GetDebug(const std::vector<int64_t>& identities, const std::string& game_id,
                        v1::GameDebug* out) override {
    asked.push_back(identities);
    if (down) return {grpc::StatusCode::UNAVAILABLE, "failed to connect to all addresses"};
    if (identities.empty() || identities.size() > kMaxDebugIdentities)
      return {grpc::StatusCode::INVALID_ARGUMENT, "identities: 1 to 100"};
    auto it = games.find(game_id);
    if (it == games.end()) return {grpc::StatusCode::NOT_FOUND, "no stored game " + game_id};
    if (it->second.hidden)
      return {grpc::StatusCode::FAILED_PRECONDITION, "game " + game_id + " is hidden until its tournament reveals it"};
    out->set_game_id(game_id);
    bool any_seat = false;
    for (size_t seat = 0; seat < it->second.seats.size(); ++seat) {
      const int64_t identity = it->second.seats[seat];
      if (std::find(identities.begin(), identities.end(), identity) == identities.end()) continue;
      any_seat = true;
      for (const v1::SeatDebug& d : it->second.debug) {
        if (d.seat() != seat) continue;
        *out->add_seats() = d;
        out->mutable_seats()->rbegin()->set_identity_id(identity);
      }
    }
    if (!any_seat) {
      out->Clear();
      return {grpc::StatusCode::PERMISSION_DENIED, "no seat of game " + game_id + " is yours"};
    }
    return grpc::Status::OK;
  }

  std::map<std::string, Game> games;
  std::vector<std::vector<int64_t>> asked;
  bool down = false;
};

v1::SeatDebug SeatNotes(uint32_t seat, std::vector<std::tuple<uint32_t, uint32_t, std::string, double>> steps,
                        uint32_t from = 0, uint32_t dropped = 0) {
  v1::SeatDebug d;
  d.set_seat(seat);
  d.set_recorded_from_step(from);
  d.set_notes_dropped(dropped);
  for (const auto& [step, think, note, evaluation] : steps) {
    v1::StepDebug* s = d.add_steps();
    s->set_step(step);
    s->set_think_ms(think);
    s->set_note(note);
    if (evaluation == evaluation) s->set_evaluation(evaluation);  // NaN: no evaluation
  }
  return d;
}

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
constexpr int64_t kAlice = 1, kBob = 2;  // FakeStore's ids, in sign-up order
constexpr int64_t kAliceBot = 100, kAliceSpare = 101, kStranger = 7, kOtherBot = 8;

class DebugNotesTest : public ::testing::Test {
 protected:
  DebugNotesTest()
      : backends_(Options()),
        api_(nullptr, &backends_),
        people_(&store_, &clock_, NewSessionToken),
        queue_(&backends_, &store_, &clock_),
        play_(&backends_),
        play_api_(&api_, &backends_, &people_, &queue_, &play_, {}, &bots_, &source_) {
    bots_.owned[kAlice] = {{kAliceBot, "alice-bot", 1000, 1}, {kAliceSpare, "spare", 1001, 0}};
    // g1: alice's bot at seat 0, alice herself at seat 3; others' notes at seats 1 and 2.
    source_.games["g1"] = {{kAliceBot, kStranger, kOtherBot, kAlice},
                           {SeatNotes(0, {{4, 120, "alice-bot chose build_road e17 of 9 legal", 0.25},
                                          {9, 80, "<b>bold</b> & \"quoted\"", kNone}}),
                            SeatNotes(1, {{5, 30, "the stranger's secret plan", 1.5}}),
                            SeatNotes(2, {{6, 40, "another bot's secret", kNone}}),
                            SeatNotes(3, {{7, 2000, "", kNone}}, /*from=*/2, /*dropped=*/1)}};
    source_.games["hidden"] = {{kAliceBot, kStranger}, {}, /*hidden=*/true};
  }

  static BackendOptions Options() {
    BackendOptions o;
    o.replays = o.ratings = o.accounts = "127.0.0.1:1";
    return o;
  }
  HttpResponse Call(std::string_view method, std::string_view path, std::string_view query = "",
                    std::string_view cookie = "", std::string* route = nullptr) {
    std::string ignored;
    return play_api_.Handle({method, path, query, "", cookie, "10.0.0.1"}, route ? route : &ignored);
  }
  static Json Body(const HttpResponse& r) { return Json::parse(r.body.empty() ? "null" : r.body); }
  static std::string HeaderOf(const HttpResponse& r, const std::string& name) {
    for (const auto& [n, v] : r.headers)
      if (n == name) return v;
    return "";
  }
  std::string SignUp(const std::string& name) {
    std::string route;
    const std::string body = R"({"name": ")" + name + R"(", "password": "correct horse"})";
    const HttpResponse r = play_api_.Handle({"POST", "/api/v1/session/signup", "", body, "", "10.0.0.1"}, &route);
    EXPECT_EQ(r.status, 201) << r.body;
    return HeaderOf(r, "Set-Cookie").substr(0, HeaderOf(r, "Set-Cookie").find(';'));
  }

  services::testing::FakeClock clock_{0, 1'700'000'000'000};
  FakeStore store_;
  OwnedBots bots_;
  FakeDebugSource source_;
  Backends backends_;
  Api api_;
  People people_;
  QueueHub queue_;
  PlayHub play_;
  PlayApi play_api_;
};

TEST_F(DebugNotesTest, TheAuthorReadsTheSeatsOfTheirBotsAndTheirOwnOnly) {
  const std::string alice = SignUp("alice");
  std::string route;
  const HttpResponse r = Call("GET", "/api/v1/me/games/g1/debug", "", alice, &route);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(route, kDebugRoute);
  // Replays was asked for alice and the bots she owns, and no one else.
  ASSERT_EQ(source_.asked.size(), 1u);
  EXPECT_EQ(source_.asked[0], (std::vector<int64_t>{kAlice, kAliceBot, kAliceSpare}));
  EXPECT_EQ(Body(r), Json::parse(R"({"game_id": "g1", "seats": [
      {"seat": 0, "identity_id": 100, "bot": "alice-bot", "recorded_from_step": 0, "notes_dropped": 0, "steps": [
        {"step": 4, "think_ms": 120, "note": "alice-bot chose build_road e17 of 9 legal", "evaluation": 0.25},
        {"step": 9, "think_ms": 80, "note": "<b>bold</b> & \"quoted\"", "evaluation": null}]},
      {"seat": 3, "identity_id": 1, "bot": null, "recorded_from_step": 2, "notes_dropped": 1, "steps": [
        {"step": 7, "think_ms": 2000, "note": "", "evaluation": null}]}]})"));
  EXPECT_EQ(r.body.find("secret"), std::string::npos);
  EXPECT_EQ(HeaderOf(r, "Content-Disposition"), "");
  // A person's read: the security headers, no CORS, never cached.
  EXPECT_TRUE(PlayApi::Handles("/api/v1/me/games/g1/debug"));
  const HeaderList headers = ResponseHeaders(ResponseKind::kAnswer, "/api/v1/me/games/g1/debug", r);
  const auto has = [&](const std::string& name, const std::string& value) {
    return std::find(headers.begin(), headers.end(), std::pair{name, value}) != headers.end();
  };
  EXPECT_TRUE(has("X-Content-Type-Options", "nosniff"));
  EXPECT_TRUE(has("Cache-Control", "no-store"));
  for (const auto& [name, value] : headers) EXPECT_NE(name, "Access-Control-Allow-Origin");
}

TEST_F(DebugNotesTest, AnotherPersonIsRefusedAndReadsNothing) {
  const std::string alice = SignUp("alice"), bob = SignUp("bob");
  bots_.owned[kBob] = {{kOtherBot + 1000, "bobs-bot", 1002, 1}};
  // Alice reads first: nothing of hers may stay with the gateway for the next person.
  ASSERT_EQ(Call("GET", "/api/v1/me/games/g1/debug", "", alice).status, 200);
  const HttpResponse r = Call("GET", "/api/v1/me/games/g1/debug", "", bob);
  EXPECT_EQ(r.status, 403) << r.body;
  EXPECT_EQ(Body(r)["error"]["status"], "PERMISSION_DENIED");
  EXPECT_EQ(Body(r)["error"]["message"],
            "no seat of game g1 was played by you or by a bot of yours: a game's notes are for its bots' authors only");
  ASSERT_EQ(source_.asked.size(), 2u);
  EXPECT_EQ(source_.asked[1], (std::vector<int64_t>{kBob, kOtherBot + 1000}));
  EXPECT_EQ(r.body.find("chose"), std::string::npos);
  // The download is no way around it.
  EXPECT_EQ(Call("GET", "/api/v1/me/games/g1/debug", "download=1", bob).status, 403);
}

TEST_F(DebugNotesTest, TheDownloadIsTheSameJsonAsAnAttachment) {
  const std::string alice = SignUp("alice");
  const HttpResponse shown = Call("GET", "/api/v1/me/games/g1/debug", "", alice);
  const HttpResponse r = Call("GET", "/api/v1/me/games/g1/debug", "download=1", alice);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  EXPECT_EQ(HeaderOf(r, "Content-Disposition"), "attachment; filename=\"g1-debug.json\"");
  EXPECT_EQ(r.body, shown.body);
  EXPECT_EQ(HeaderOf(Call("GET", "/api/v1/me/games/g1/debug", "download=0", alice), "Content-Disposition"), "");
  HttpResponse bad = Call("GET", "/api/v1/me/games/g1/debug", "download=yes", alice);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Body(bad)["error"]["parameter"], "download");
  bad = Call("GET", "/api/v1/me/games/g1/debug", "seat=0", alice);
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(Body(bad)["error"]["parameter"], "seat");
}

TEST_F(DebugNotesTest, ErrorsAreMappedAsEveryRead) {
  // Not signed in: 401 before anything is asked.
  HttpResponse r = Call("GET", "/api/v1/me/games/g1/debug");
  EXPECT_EQ(r.status, 401);
  EXPECT_TRUE(source_.asked.empty());
  const std::string alice = SignUp("alice");
  std::string route;
  r = Call("POST", "/api/v1/me/games/g1/debug", "", alice, &route);
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(HeaderOf(r, "Allow"), "GET, HEAD");
  EXPECT_EQ(route, kDebugRoute);
  r = Call("GET", "/api/v1/me/games/no!such/debug", "", alice);
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(Body(r)["error"]["parameter"], "game_id");
  EXPECT_TRUE(source_.asked.empty());

  r = Call("GET", "/api/v1/me/games/nope/debug", "", alice);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(Body(r)["error"]["message"], "replays: no stored game nope");
  // A hidden tournament game is 409, as the replay itself (FAILED_PRECONDITION).
  r = Call("GET", "/api/v1/me/games/hidden/debug", "", alice);
  EXPECT_EQ(r.status, 409);
  EXPECT_EQ(Body(r)["error"]["status"], "FAILED_PRECONDITION");
  source_.down = true;
  r = Call("GET", "/api/v1/me/games/g1/debug", "", alice);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(Body(r)["error"]["backend"], "replays");
  source_.down = false;
  bots_.down = true;
  const size_t asked = source_.asked.size();
  r = Call("GET", "/api/v1/me/games/g1/debug", "", alice);
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(Body(r)["error"]["backend"], "accounts");
  EXPECT_EQ(source_.asked.size(), asked);  // without the person's bots, nothing is asked

  PlayApi bare(&api_, &backends_, &people_, &queue_, &play_, {}, &bots_);
  r = bare.Handle({"GET", "/api/v1/me/games/g1/debug", "", "", alice, "10.0.0.1"}, &route);
  EXPECT_EQ(r.status, 503);
  EXPECT_FALSE(PlayApi::Handles("/api/v1/me/games/g1/debug/"));
  EXPECT_FALSE(PlayApi::Handles("/api/v1/me/games//debug"));
}

TEST_F(DebugNotesTest, APersonWithManyBotsIsAskedForInCallsOfAHundred) {
  const std::string alice = SignUp("alice");
  bots_.owned[kAlice].clear();
  for (int64_t i = 0; i < 150; ++i) bots_.owned[kAlice].push_back({5000 + i, "bot" + std::to_string(i), 0, 0});
  source_.games["late"] = {{kStranger, 5000 + 140}, {SeatNotes(1, {{3, 10, "the 141st bot's note", kNone}})}};
  const HttpResponse r = Call("GET", "/api/v1/me/games/late/debug", "", alice);
  ASSERT_EQ(r.status, 200) << r.body;
  ASSERT_EQ(source_.asked.size(), 2u);
  EXPECT_EQ(source_.asked[0].size(), 100u);
  EXPECT_EQ(source_.asked[1].size(), 51u);
  EXPECT_EQ(source_.asked[0][0], kAlice);
  EXPECT_EQ(Body(r)["seats"][0]["bot"], "bot140");
  EXPECT_EQ(Body(r)["seats"][0]["steps"][0]["note"], "the 141st bot's note");
}

}  // namespace
}  // namespace metropolis::gateway
