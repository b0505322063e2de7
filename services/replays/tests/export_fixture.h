// What the bulk export's client tests share (the gateway's HTTP endpoint,
// metropolisctl export-games): the real Replays service on loopback over its
// in-memory stores, holding ladder "weekly" (five games, g-w0..g-w4, a second
// apart) and tournament "dup" (a duplicate set's two rotations and a void
// attempt, all hidden until revealed), and ExportGame's record of any game —
// what each exported line must be.
#pragma once

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "services/replays/tests/fake_replay_store.h"
#include "services/replays/tests/fake_reveal_store.h"
#include "services/replays/tests/games.h"
#include "services/replays/tests/service_fixture.h"

namespace metropolis::replays::testing {

// The lines of an export, without their newlines.
inline std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class ExportFixture : public ReplaysServiceTest {
 protected:
  void SetUp() override {
    Serve(&store_, &reveals_);
    for (int i = 0; i < 5; ++i)
      ASSERT_TRUE(
          Store(PlayGame(90 + uint64_t(i), "g-w" + std::to_string(i), "weekly", 1'800'000'000'000 + i * 1000)).ok());
    for (const char* id : {"t-dup-0-1", "t-dup-1-1", "t-dup-0-0"})
      ASSERT_TRUE(Store(InTournament("dup", id, 95 + uint64_t(id[8] - '0'))).ok());
  }

  // ExportGame's record of each game, in order.
  std::vector<std::string> Records(const std::vector<std::string>& ids) {
    std::vector<std::string> records;
    for (const std::string& id : ids) {
      v1::ExportGameRequest request;
      request.set_game_id(id);
      v1::ExportGameResponse response;
      EXPECT_TRUE(Call(&v1::Replays::Stub::ExportGame, request, &response).ok()) << id;
      records.push_back(response.record_json());
    }
    return records;
  }

  FakeReplayStore store_;
  FakeRevealStore reveals_;
};

}  // namespace metropolis::replays::testing
