// The people and play endpoints' test fixture (play_api.h): the gateway's
// parts over a fake store and a fake clock, called without a server.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "lib/common/tests/fake_clock.h"
#include "services/gateway/backends.h"
#include "services/gateway/catalog.h"
#include "services/gateway/play_api.h"
#include "services/gateway/tests/people_fakes.h"

namespace metropolis::gateway::testing {

// The people and play endpoints over a fake store and a fake clock. Each
// fixture says which backends exist (StartGateway); the gateway's parts are built
// after the fixture's own fake servers, whose addresses they need, and gone
// before those servers stop (StopGateway, from each fixture's destructor).
class PlayApiFixture : public ::testing::Test {
 protected:
  void StartGateway(const BackendOptions& options, PlayApiOptions play_options = {}, bool with_catalog = false) {
    backends_ = std::make_unique<Backends>(options);
    if (with_catalog) catalog_ = std::make_unique<Catalog>(backends_.get());
    api_ = std::make_unique<Api>(catalog_.get(), backends_.get());
    people_ = std::make_unique<People>(&store_, &clock_, NewSessionToken);
    queue_ = std::make_unique<QueueHub>(backends_.get(), &store_, &clock_);
    play_ = std::make_unique<PlayHub>(backends_.get());
    play_api_ =
        std::make_unique<PlayApi>(api_.get(), backends_.get(), people_.get(), queue_.get(), play_.get(), play_options);
  }
  void StopGateway() {
    play_api_.reset();
    play_.reset();
    queue_.reset();
    people_.reset();
    api_.reset();
    catalog_.reset();
    backends_.reset();
  }

  HttpResponse Call(std::string_view method, std::string_view path, std::string_view body = "",
                    std::string_view cookie = "", std::string_view query = "") {
    std::string route;
    return play_api_->Handle({method, path, query, body, cookie, "10.0.0.1"}, &route);
  }
  static Json Body(const HttpResponse& r) { return Json::parse(r.body.empty() ? "null" : r.body); }
  static std::string Header(const HttpResponse& r, const std::string& name) {
    for (const auto& [n, v] : r.headers)
      if (n == name) return v;
    return "";
  }
  // A signed-up person's Cookie header.
  std::string SignUp(const std::string& name) {
    const HttpResponse r =
        Call("POST", "/api/v1/session/signup", R"({"name": ")" + name + R"(", "password": "correct horse"})");
    EXPECT_EQ(r.status, 201) << r.body;
    const std::string set = Header(r, "Set-Cookie");
    return set.substr(0, set.find(';'));
  }

  services::testing::FakeClock clock_{0, 1'700'000'000'000};
  FakeStore store_;

 private:
  std::unique_ptr<Backends> backends_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<Api> api_;
  std::unique_ptr<People> people_;
  std::unique_ptr<QueueHub> queue_;
  std::unique_ptr<PlayHub> play_;
  std::unique_ptr<PlayApi> play_api_;
};

}  // namespace metropolis::gateway::testing
