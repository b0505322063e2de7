// Which seats of a stored game were people: the analysis worker analyses those
// games as they are stored and leaves games of bots until someone asks. The
// kind of an identity ("player" or "bot") is the Accounts service's
// (Accounts.GetIdentity, a public read); GrpcPeople asks it and remembers the
// answers (an identity's kind never changes).
#pragma once

#include <grpcpp/support/status.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "metropolis/v1/accounts.grpc.pb.h"

namespace metropolis::replays {

class People {
 public:
  virtual ~People() = default;
  // Whether identity `id`, seated under `name`, is a person. NOT_FOUND when
  // the name no longer names that identity (renamed since); UNAVAILABLE when
  // the directory cannot answer.
  virtual grpc::Status IsPerson(int64_t id, const std::string& name, bool* person) = 0;
};

class GrpcPeople final : public People {
 public:
  static constexpr size_t kMaxCached = 100'000;

  // A channel to Accounts at `address`, calls carrying `token`.
  GrpcPeople(const std::string& address, std::string token, int64_t deadline_ms = 2000);

  grpc::Status IsPerson(int64_t id, const std::string& name, bool* person) override;

 private:
  std::unique_ptr<v1::Accounts::Stub> stub_;
  const std::string token_;
  const int64_t deadline_ms_;
  std::mutex mutex_;
  std::unordered_map<int64_t, bool> known_;
};

}  // namespace metropolis::replays
