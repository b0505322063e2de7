#include "bench/live_reference.h"

#include <iostream>

namespace metropolis::load {
namespace {

const std::string kSpectateMethod = "/metropolis.v1.GameHost/Spectate";

}  // namespace

void DirectStream::Start(SpectateStub* stub, const std::string& game_id, const std::string& token) {
  context_.AddMetadata("authorization", "Bearer " + token);
  request_.set_game_id(game_id);
  request_.set_from_start(false);  // what comes after the welcome is live
  stub->PrepareBidiStreamingCall(&context_, kSpectateMethod, grpc::StubOptions(), this);
  StartWriteLast(&request_, grpc::WriteOptions());
  StartRead(&update_);
  StartCall();
}

void DirectStream::OnReadDone(bool ok) {
  if (!ok) return;  // OnDone follows
  const int64_t now = NowNs();
  SpectateSummary s;
  if (SummarizeSpectate(update_, &s)) {
    ref_->DirectUpdate(s, now);
  } else {
    ref_->Malformed();
  }
  update_.Clear();
  StartRead(&update_);
}

void DirectStream::OnDone(const grpc::Status& status) {
  if (!status.ok() && !ref_->live() && status.error_code() != grpc::StatusCode::CANCELLED) {
    // Not watched at all: say why, once in a while.
    static std::atomic<int> said{0};
    if (said.fetch_add(1) < 5)
      std::cerr << "gateway_streams: Spectate " << ref_->game_id() << " failed: " << int(status.error_code()) << " "
                << status.error_message() << "\n";
  }
  ref_->DirectDone();
  delete this;
}

void Reference::Start(SpectateStub* stub, const std::string& token) {
  auto* direct = new DirectStream(shared_from_this());
  {
    std::lock_guard lock(mutex_);
    direct_ = direct;
  }
  tally_->direct_running.fetch_add(1);
  direct->Start(stub, game_id_, token);
}

void Reference::Cancel() {
  std::lock_guard lock(mutex_);
  if (direct_) direct_->Cancel();
}

void Reference::TimeLocked(const Pending& p, int64_t direct_ns, bool exact) {
  Counters<Count>& c = tally_->counters;
  if (direct_ns < p.opened_ns) {
    c.Add(kHistory);
    return;
  }
  int64_t latency = p.at_ns - direct_ns;
  if (latency < 0) {
    c.Add(kGatewayFirst);
    latency = 0;
  }
  c.Add(kMatched);
  if (!exact) c.Add(kMatchedMerged);
  (p.over ? tally_->game_over : tally_->delivery).Record(latency);
}

void Reference::GatewayEvents(uint32_t step, int64_t at_ns, int64_t opened_ns) {
  const Pending p{step, false, at_ns, opened_ns};
  std::lock_guard lock(mutex_);
  if (step <= welcome_step_) {  // before the direct stream began
    tally_->counters.Add(kHistory);
    return;
  }
  auto it = arrivals_.lower_bound(step);
  if (it != arrivals_.end()) {
    TimeLocked(p, it->second, it->first == step);
  } else if (ended_ || over_ns_ != 0) {
    tally_->counters.Add(kUnmatched);
  } else {
    pending_.push_back(p);
  }
}

void Reference::GatewayOver(int64_t at_ns, int64_t opened_ns) {
  const Pending p{0, true, at_ns, opened_ns};
  std::lock_guard lock(mutex_);
  if (over_ns_ != 0) {
    TimeLocked(p, over_ns_, true);
  } else if (ended_) {
    tally_->counters.Add(kUnmatched);
  } else {
    pending_.push_back(p);
  }
}

void Reference::DirectUpdate(const SpectateSummary& s, int64_t at_ns) {
  std::lock_guard lock(mutex_);
  switch (s.kind) {
    case v1::SpectateUpdate::kWelcome:
      welcome_step_ = s.step;
      tally_->counters.Add(kGamesWatched);
      live_.store(true, std::memory_order_release);
      break;
    case v1::SpectateUpdate::kEvents: {
      arrivals_.emplace(s.step, at_ns);
      // Gateway deliveries of this step or of steps merged into it.
      std::erase_if(pending_, [&](const Pending& p) {
        if (p.over || p.step > s.step) return false;
        TimeLocked(p, at_ns, p.step == s.step);
        return true;
      });
      break;
    }
    case v1::SpectateUpdate::kGameOver:
      over_ns_ = at_ns;
      over_.store(true, std::memory_order_release);
      std::erase_if(pending_, [&](const Pending& p) {
        if (!p.over) return false;
        TimeLocked(p, at_ns, true);
        return true;
      });
      break;
    default:
      break;
  }
}

void Reference::Malformed() { tally_->counters.Add(kMalformed); }

void Reference::GiveUp() {
  std::lock_guard lock(mutex_);
  tally_->counters.Add(kUnmatched, pending_.size());
  pending_.clear();
}

void Reference::DirectDone() {
  {
    std::lock_guard lock(mutex_);
    direct_ = nullptr;
    if (!live_) tally_->counters.Add(kDirectFailed);
    ended_ns_.store(NowNs(), std::memory_order_release);
    ended_.store(true, std::memory_order_release);
  }
  GiveUp();
  tally_->direct_running.fetch_sub(1);
}

}  // namespace metropolis::load
