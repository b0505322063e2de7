#include "lib/protocol/seat_record.h"

#include <openssl/evp.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "engine/hex.h"
#include "metropolis/v1/game.pb.h"
#include "metropolis/v1/gamehost.pb.h"

namespace metropolis::protocol {

std::string CanonicalEventLine(int type, int seat, int other, int a, int b, int c, uint64_t code) {
  char line[160];
  std::snprintf(line, sizeof line, "%d %d %d %d %d %d %llu\n", type, seat, other, a, b, c,
                static_cast<unsigned long long>(code));
  return line;
}

std::string CanonicalEventLine(const v1::Event& e) {
  return CanonicalEventLine(int(e.type()), e.seat(), e.other(), int(e.a()), int(e.b()), int(e.c()),
                            e.has_action() ? e.action().code() : 0);
}

struct EventDigest::Impl {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  ~Impl() { EVP_MD_CTX_free(ctx); }
};

EventDigest::EventDigest() : impl_(std::make_unique<Impl>()) { EVP_DigestInit_ex(impl_->ctx, EVP_sha256(), nullptr); }
EventDigest::~EventDigest() = default;
EventDigest::EventDigest(EventDigest&&) noexcept = default;
EventDigest& EventDigest::operator=(EventDigest&&) noexcept = default;

void EventDigest::Add(const std::string& line) { EVP_DigestUpdate(impl_->ctx, line.data(), line.size()); }

std::string EventDigest::HexDigest() const {
  // Finish a copy, so that the running digest can take more lines.
  EVP_MD_CTX* copy = EVP_MD_CTX_new();
  EVP_MD_CTX_copy_ex(copy, impl_->ctx);
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(copy, md, &n);
  EVP_MD_CTX_free(copy);
  return HexOf(md, n);
}

void SeatLog::See(uint32_t step) {
  if (seen_any_ && step < last_step_) ++backwards_;
  if (!seen_any_ || step > last_step_) last_step_ = step;
  seen_any_ = true;
}

void SeatLog::OnWelcome(uint32_t step) {
  See(step);
  segments_.emplace_back(step, step);
}

void SeatLog::OnEvents(const v1::Events& events) {
  See(events.step());
  // Events before any welcome cannot happen on the stream; keep them countable.
  if (segments_.empty()) segments_.emplace_back(0, 0);
  segments_.back().second = events.step();
  for (const v1::Event& e : events.events()) digest_.Add(CanonicalEventLine(e));
}

void SeatLog::OnStep(uint32_t step) { See(step); }

uint32_t StepOf(const v1::PlayUpdate& update) {
  switch (update.msg_case()) {
    case v1::PlayUpdate::kWelcome:
      return update.welcome().step();
    case v1::PlayUpdate::kEvents:
      return update.events().step();
    case v1::PlayUpdate::kDecision:
      return update.decision().step();
    default:
      return 0;
  }
}

void SeatLog::OnGameOver(const v1::GameResult& result) {
  std::string name = v1::EndReason_Name(result.reason());
  constexpr std::string_view kPrefix = "END_REASON_";
  if (name.starts_with(kPrefix)) name.erase(0, kPrefix.size());
  reason_ = name.empty() ? std::to_string(int(result.reason())) : name;
  winner_ = result.winner();
  vp_.assign(result.vp().begin(), result.vp().end());
  actions_ = result.actions();
}

SeatRecord SeatLog::Record(const std::string& game_id, int seat) const {
  SeatRecord r;
  r.game_id = game_id;
  r.seat = seat;
  r.segments = segments_;
  r.events_sha256 = digest_.HexDigest();
  r.last_step = last_step_;
  r.backwards = backwards_;
  r.reason = reason_;
  r.winner = winner_;
  r.vp = vp_;
  r.actions = actions_;
  return r;
}

std::string SeatRecordToJson(const SeatRecord& r) {
  nlohmann::json j;
  j["game"] = r.game_id;
  j["seat"] = r.seat;
  j["segments"] = nlohmann::json::array();
  for (const auto& [from, to] : r.segments) j["segments"].push_back({from, to});
  j["events_sha256"] = r.events_sha256;
  j["last_step"] = r.last_step;
  j["backwards"] = r.backwards;
  j["reason"] = r.reason;
  j["winner"] = r.winner;
  j["vp"] = r.vp;
  j["actions"] = r.actions;
  return j.dump();
}

bool SeatRecordFromJson(const std::string& line, SeatRecord* out, std::string* error) {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "not a JSON object";
    return false;
  }
  SeatRecord r;
  try {
    r.game_id = j.at("game").get<std::string>();
    r.seat = j.at("seat").get<int>();
    for (const auto& s : j.at("segments")) {
      if (!s.is_array() || s.size() != 2) throw std::invalid_argument("segments: each is [from, to]");
      r.segments.emplace_back(s[0].get<uint32_t>(), s[1].get<uint32_t>());
    }
    r.events_sha256 = j.at("events_sha256").get<std::string>();
    r.last_step = j.at("last_step").get<uint32_t>();
    r.backwards = j.at("backwards").get<int>();
    r.reason = j.at("reason").get<std::string>();
    r.winner = j.at("winner").get<int>();
    r.vp = j.at("vp").get<std::vector<int>>();
    r.actions = j.at("actions").get<uint32_t>();
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
  if (r.game_id.empty() || r.seat < 0 || r.seat > 3 || r.events_sha256.size() != 64) {
    *error = "a record needs a game, a seat 0..3 and a 64-digit events_sha256";
    return false;
  }
  *out = std::move(r);
  return true;
}

}  // namespace metropolis::protocol
