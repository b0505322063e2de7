#include "services/gamehost/checkpoint.h"

#include <charconv>

#include "engine/hex.h"
#include "lib/auth/token.h"
#include "lib/chance/verifiable.h"
#include "lib/protocol/convert.h"
#include "metropolis/v1/checkpoint.pb.h"
#include "services/gamehost/game.h"

namespace metropolis::gamehost {

std::string TokenHash(const std::string& token) { return HexOf(auth::Sha256(token)); }

std::string CheckpointSetupBytes(const GameSetup& setup, int64_t created_unix_ms) {
  v1::GameCheckpointSetup p;
  p.set_game_id(setup.id);
  p.set_ladder(setup.ladder);
  p.set_season(setup.season);
  p.set_tournament(setup.tournament);
  p.set_hidden(setup.hidden);
  protocol::ConfigToProto(setup.config, p.mutable_config());
  for (const SeatSetup& s : setup.seats) {
    v1::CheckpointSeat* seat = p.add_seats();
    seat->set_name(s.name);
    seat->set_token_sha256(s.token_hash);
    seat->set_fallback_bot(s.fallback_bot);
    seat->set_built_in(s.built_in);
    seat->set_identity_id(s.identity_id);
  }
  p.set_decision_ms(setup.decision_ms);
  p.set_time_bank_ms(setup.time_bank_ms);
  p.set_chance_seed(setup.chance_seed);
  p.set_verifiable_seed(setup.verifiable_seed);
  p.set_start_timeout_ms(setup.start_timeout_ms);
  p.set_forfeit_after(setup.forfeit_after);
  p.set_request_id(setup.request_id);
  p.set_created_unix_ms(created_unix_ms);
  p.set_lockstep(setup.lockstep);
  return p.SerializeAsString();
}

bool SetupFromCheckpoint(const std::string& bytes, GameSetup* setup, int64_t* created_unix_ms, std::string* error) {
  v1::GameCheckpointSetup p;
  if (!p.ParseFromString(bytes)) {
    *error = "the checkpoint's setup does not parse";
    return false;
  }
  if (!protocol::ConfigFromProto(p.config(), &setup->config, error)) {
    *error = "the checkpoint's config: " + *error;
    return false;
  }
  if (p.seats_size() != setup->config.num_seats) {
    *error = "the checkpoint's seats: " + std::to_string(p.seats_size()) + " for a game of " +
             std::to_string(setup->config.num_seats) + " seats";
    return false;
  }
  setup->id = p.game_id();
  setup->ladder = p.ladder();
  setup->season = p.season();
  setup->tournament = p.tournament();
  setup->hidden = p.hidden();
  setup->lockstep = p.lockstep();
  setup->seats.clear();
  for (const v1::CheckpointSeat& s : p.seats()) {
    SeatSetup seat;
    seat.name = s.name();
    seat.token_hash = s.token_sha256();
    seat.fallback_bot = s.fallback_bot();
    seat.built_in = s.built_in();
    seat.identity_id = s.identity_id();
    setup->seats.push_back(std::move(seat));
  }
  setup->decision_ms = p.decision_ms();
  setup->time_bank_ms = p.time_bank_ms();
  setup->chance_seed = p.chance_seed();
  if (!p.verifiable_seed().empty() && p.verifiable_seed().size() != chance::kSeedBytes) {
    *error = "the checkpoint's verifiable seed: " + std::to_string(p.verifiable_seed().size()) + " bytes, not " +
             std::to_string(chance::kSeedBytes);
    return false;
  }
  setup->verifiable_seed = p.verifiable_seed();
  setup->start_timeout_ms = p.start_timeout_ms();
  setup->forfeit_after = p.forfeit_after();
  setup->request_id = p.request_id();
  *created_unix_ms = p.created_unix_ms();
  return true;
}

std::string EncodePhase(const GamePhase& phase) {
  if (phase.finished_unix_ms > 0)
    return "f" + std::to_string(phase.finished_unix_ms) +
           (phase.resigned_seat >= 0 ? "r" + std::to_string(phase.resigned_seat) : "");
  return phase.started ? "1" : "0";
}

namespace {

template <typename T>
bool ParseNumber(std::string_view text, T* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

bool DecodePhase(std::string_view text, Checkpoint* out) {
  out->finished_unix_ms = 0;
  out->resigned_seat = -1;
  if (text.empty() || text == "0" || text == "1") {
    out->started = text == "1";
    return true;
  }
  out->started = true;
  if (text[0] != 'f') return false;
  text.remove_prefix(1);
  if (const size_t r = text.find('r'); r != std::string_view::npos) {
    if (!ParseNumber(text.substr(r + 1), &out->resigned_seat) || out->resigned_seat < 0) return false;
    text = text.substr(0, r);
  }
  return ParseNumber(text, &out->finished_unix_ms) && out->finished_unix_ms > 0;
}

std::string EncodeProgress(const std::vector<SeatProgress>& seats) {
  std::string out;
  for (const SeatProgress& s : seats) {
    if (!out.empty()) out += ';';
    out += std::to_string(s.bank_ms) + ',' + std::to_string(s.decisions) + ',' + std::to_string(s.fallback_decisions) +
           ',' + std::to_string(s.fallback_in_a_row) + ',' + (s.forfeited ? '1' : '0');
  }
  return out;
}

bool DecodeProgress(std::string_view text, std::vector<SeatProgress>* out) {
  out->clear();
  while (!text.empty()) {
    const size_t semi = text.find(';');
    std::string_view item = text.substr(0, semi);
    text = semi == std::string_view::npos ? std::string_view() : text.substr(semi + 1);
    std::vector<std::string_view> parts;
    for (size_t start = 0;;) {
      const size_t comma = item.find(',', start);
      parts.push_back(item.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    SeatProgress s;
    int forfeited = 0;
    if (parts.size() != 5 || !ParseNumber(parts[0], &s.bank_ms) || !ParseNumber(parts[1], &s.decisions) ||
        !ParseNumber(parts[2], &s.fallback_decisions) || !ParseNumber(parts[3], &s.fallback_in_a_row) ||
        !ParseNumber(parts[4], &forfeited))
      return false;
    s.forfeited = forfeited != 0;
    out->push_back(s);
  }
  return true;
}

std::string EncodeLogEntry(const Action& action) { return std::to_string(Encode(action)); }

bool DecodeLogEntry(std::string_view text, Action* out) {
  uint64_t code = 0;
  if (!ParseNumber(text, &code)) return false;
  const std::optional<Action> action = Decode(code);
  if (!action) return false;
  *out = *action;
  return true;
}

const char* CheckpointResultName(const grpc::Status& status) {
  switch (status.error_code()) {
    case grpc::StatusCode::OK:
      return "ok";
    case grpc::StatusCode::ABORTED:
      return "fenced";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "exists";
    case grpc::StatusCode::NOT_FOUND:
      return "missing";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "not_yet";
    default:
      return "unavailable";
  }
}

}  // namespace metropolis::gamehost
