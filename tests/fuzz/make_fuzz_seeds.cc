// Writes the seed inputs of protocol_fuzz, checkpoint_fuzz and gateway_body_fuzz
// from real messages: positions, actions, events and views of seeded random
// games, a finished game as StoreGame receives it, a checkpoint as the game host
// writes it, and the bodies the web app posts. Run from the fuzz build:
//
//   build/fuzz/tests/fuzz/make_fuzz_seeds tests/fuzz/corpus
//
// The files are checked in; run it again when a message changes.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "lib/protocol/convert.h"
#include "metropolis/v1/game.pb.h"
#include "metropolis/v1/gamehost.pb.h"
#include "metropolis/v1/replays.pb.h"
#include "services/gamehost/checkpoint.h"
#include "services/gamehost/game.h"
#include "tests/fuzz/fuzz_games.h"

namespace metropolis {
namespace {

std::filesystem::path root;

void Write(const std::string& target, const std::string& name, const std::string& bytes) {
  const std::filesystem::path dir = root / target;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << bytes;
}

// protocol_fuzz's header: the message kind, the configuration byte, the steps played.
std::string Header(uint8_t kind, uint8_t config, uint8_t steps) {
  return std::string{char(kind), char(config), char(steps)};
}

void ProtocolSeeds() {
  const std::string kTarget = "protocol_fuzz";
  // Answers: a legal action at the position the header plays to (a code, and a text).
  const std::pair<uint8_t, uint8_t> positions[] = {{0, 0}, {1, 40}, {6, 120}};
  int n = 0;
  for (auto [config_byte, steps] : positions) {
    State s(fuzz::ConfigFromByte(config_byte));
    fuzz::PlaySteps(&s, config_byte, steps);
    if (s.IsChanceNode() || s.IsTerminal()) continue;
    const std::vector<Action> legal = s.LegalActions();
    v1::PlayAnswer answer;
    answer.set_step(steps);
    protocol::ActionToProto(legal.back(), answer.mutable_action());
    Write(kTarget, "answer" + std::to_string(n), Header(0, config_byte, steps) + answer.SerializeAsString());
    answer.mutable_action()->set_code(0);
    answer.mutable_action()->set_text(ActionToString(legal.front()));
    Write(kTarget, "answer_text" + std::to_string(n++), Header(0, config_byte, steps) + answer.SerializeAsString());
  }
  // Configurations: complete ones as ConfigToProto writes them, and a request's few fields.
  for (uint8_t b : {uint8_t(0), uint8_t(7)}) {
    v1::GameConfig c;
    protocol::ConfigToProto(fuzz::ConfigFromByte(b), &c);
    Write(kTarget, "config" + std::to_string(b), Header(1, 0, 0) + c.SerializeAsString());
  }
  v1::GameConfig request;
  request.set_num_seats(3);
  request.set_random_board_seed(42);
  Write(kTarget, "config_request", Header(1, 0, 0) + request.SerializeAsString());
  // Events and views of a game, as a seat receives them.
  State s(fuzz::ConfigFromByte(1));
  KnowledgeTracker tracker(0);
  tracker.Reset(s);
  uint64_t seed = 5;
  std::vector<Event> events;
  int written = 0;
  ActionList legal;
  for (int step = 0; step < 200 && !s.IsTerminal(); ++step) {
    Action a;
    if (s.IsChanceNode()) {
      const auto outcomes = s.ChanceOutcomes();
      a = outcomes[SplitMixNext(&seed) % outcomes.size()].action;
    } else {
      s.LegalActions(&legal);
      a = legal.items[SplitMixNext(&seed) % legal.size];
    }
    events.clear();
    s.ApplyUnchecked(a, &events);
    for (const Event& e : events) {
      tracker.Observe(MaskEvent(e, 0));
      if (step % 37 == 0 && written < 4) {
        v1::Event out;
        protocol::EventToProto(MaskEvent(e, 0), &out);
        Write(kTarget, "event" + std::to_string(written++), Header(2, 0, 0) + out.SerializeAsString());
      }
    }
  }
  for (auto [config_byte, steps] : {std::pair<uint8_t, uint8_t>{0, 0}, {1, 150}}) {
    State p(fuzz::ConfigFromByte(config_byte));
    fuzz::PlaySteps(&p, config_byte, steps);
    v1::View view;
    protocol::ViewToProto(MakeView(p, 1), &view);
    Write(kTarget, "view" + std::to_string(steps), Header(3, config_byte, steps) + view.SerializeAsString());
  }
  // A finished game as the game host stores it.
  const GameConfig config = fuzz::ConfigFromByte(4);  // 3 seats, base game, 5 victory points
  State game(config);
  std::vector<Action> log;
  fuzz::PlaySteps(&game, 11, 20000, &log);
  v1::StoreGameRequest store;
  v1::CompletedGameRecord* record = store.mutable_game();
  record->set_game_id("seed-game");
  protocol::ConfigToProto(config, record->mutable_config());
  for (int i = 0; i < config.num_seats; ++i) {
    v1::SeatRecord* seat = record->add_seats();
    seat->set_seat(uint32_t(i));
    seat->set_name("bot:random-" + std::to_string(i));
  }
  protocol::ResultToProto(game, record->mutable_result());
  for (const Action& a : log) record->add_actions(Encode(a));
  Write(kTarget, "store_game", Header(4, 0, 0) + store.SerializeAsString());
  std::printf("%s: a stored game of %zu actions (%s)\n", kTarget.c_str(), log.size(),
              game.IsTerminal() ? "finished" : "not finished");
}

void CheckpointSeeds() {
  gamehost::GameSetup setup;
  setup.id = "g-7f3a";
  setup.ladder = "open";
  setup.season = 3;
  setup.config = fuzz::ConfigFromByte(1);
  for (int i = 0; i < setup.config.num_seats; ++i) {
    gamehost::SeatSetup seat;
    seat.name = i == 0 ? "bot:heuristic" : "player-" + std::to_string(i);
    seat.built_in = i == 0;
    seat.fallback_bot = "heuristic";
    if (i > 0) seat.token_hash = gamehost::TokenHash("token-" + std::to_string(i));
    seat.identity_id = i;
    setup.seats.push_back(seat);
  }
  setup.decision_ms = 60000;
  setup.time_bank_ms = 300000;
  setup.chance_seed = 99;
  setup.start_timeout_ms = 120000;
  setup.forfeit_after = 5;
  setup.request_id = "req-1";
  const std::string bytes = gamehost::CheckpointSetupBytes(setup, 1764806400000);
  const auto checkpoint = [&](const std::string& phase, const std::vector<gamehost::SeatProgress>& seats,
                              const std::vector<Action>& log) {
    std::string out{char(bytes.size() & 0xff), char(bytes.size() >> 8)};
    out += bytes + phase + "\n" + gamehost::EncodeProgress(seats) + "\n";
    for (const Action& a : log) out += gamehost::EncodeLogEntry(a) + "\n";
    return out;
  };
  const std::vector<gamehost::SeatProgress> fresh(setup.seats.size(), {300000, 0, 0, 0, false});
  Write("checkpoint_fuzz", "created", checkpoint("0", fresh, {}));
  State s(setup.config);
  std::vector<Action> log;
  fuzz::PlaySteps(&s, 3, 60, &log);
  std::vector<gamehost::SeatProgress> playing = {
      {281000, 9, 1, 0, false}, {300000, 8, 0, 0, false}, {12000, 8, 6, 5, true}, {299000, 8, 0, 0, false}};
  playing.resize(setup.seats.size());
  Write("checkpoint_fuzz", "playing", checkpoint(gamehost::EncodePhase({true, 0}), playing, log));
  Write("checkpoint_fuzz", "finished", checkpoint(gamehost::EncodePhase({true, 1764810000000}), playing, log));
}

void BodySeeds() {
  const std::string kTarget = "gateway_body_fuzz";
  Write(kTarget, "signup", std::string(1, '\0') + R"({"name":"alice","password":"correct horse battery"})");
  Write(kTarget, "practice",
        "\x01"
        R"({"bots":3,"strength":"heuristic"})");
  Write(kTarget, "queue",
        "\x02"
        R"({"ladder":"open-4p"})");
  State s(fuzz::ConfigFromByte(1));
  fuzz::PlaySteps(&s, 1, 40);
  while (s.IsChanceNode()) s.ApplyUnchecked(s.ChanceOutcomes().front().action);
  const Action a = s.LegalActions().back();
  Write(kTarget, "answer_code", "\x03{\"step\":40,\"code\":\"" + std::to_string(Encode(a)) + "\"}");
  Write(kTarget, "answer_text", "\x03{\"step\":40,\"text\":\"" + ActionToString(a) + "\"}");
}

}  // namespace
}  // namespace metropolis

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_fuzz_seeds CORPUS_DIR (tests/fuzz/corpus)\n");
    return 2;
  }
  metropolis::root = argv[1];
  metropolis::ProtocolSeeds();
  metropolis::CheckpointSeeds();
  metropolis::BodySeeds();
  return 0;
}
