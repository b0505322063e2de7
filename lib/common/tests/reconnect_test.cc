// DialReconnectingWithin (reconnect.h) and Dial (credentials.h): a channel whose
// peer keeps refusing it tries again at least every `max_backoff_ms` (Dial: every
// kReconnectBackoffCapMs), where gRPC's own backoff grows (1 s, 1.6 s, 2.6 s, ...
// up to 120 s). Seen by the peer: a listener that accepts
// each connection and closes it at once counts the attempts, so the backoff is
// observed from outside, not read back from the channel's arguments.
#include "lib/common/reconnect.h"

#include <arpa/inet.h>
#include <grpc/grpc.h>
#include <grpcpp/channel.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/channel_arguments.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "lib/common/credentials.h"

namespace metropolis::services {
namespace {

using Clock = std::chrono::steady_clock;

// Listens on a loopback port and hands every connection it accepts to
// `on_accept`, on its own thread, until Stop() or destruction. Whoever holds it
// declares it after the state `on_accept` touches, so that it stops first.
class LoopbackListener {
 public:
  explicit LoopbackListener(std::function<void(int connection)> on_accept) : on_accept_(std::move(on_accept)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      ::close(fd_);
      throw std::runtime_error("LoopbackListener: cannot listen on loopback");
    }
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { Serve(); });
  }
  ~LoopbackListener() {
    Stop();
    ::close(fd_);
  }
  // Returns once no more connections will be handed over.
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

 private:
  void Serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) <= 0) continue;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c >= 0) on_accept_(c);
    }
  }
  const std::function<void(int)> on_accept_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// Accepts and drops every connection on a loopback port, noting when each came.
class RefusingPeer {
 public:
  std::string address() const { return listener_.address(); }
  // How many attempts came between `from` and `to` after `start`.
  int AttemptsBetween(Clock::time_point start, std::chrono::milliseconds from, std::chrono::milliseconds to) {
    std::lock_guard lock(mu_);
    int n = 0;
    for (Clock::time_point t : attempts_) n += t >= start + from && t < start + to;
    return n;
  }

 private:
  std::mutex mu_;
  std::vector<Clock::time_point> attempts_;
  LoopbackListener listener_{[this](int c) {
    {
      std::lock_guard lock(mu_);
      attempts_.push_back(Clock::now());
    }
    ::close(c);
  }};
};

// Accepts connections on a loopback port and answers each, after `delay`, with
// an HTTP/2 server preface (an empty SETTINGS frame): a peer whose handshake is
// slow, as any is on a loaded machine. Counts the connections it was offered.
class SlowHandshakePeer {
 public:
  explicit SlowHandshakePeer(std::chrono::milliseconds delay) : delay_(delay) {}
  ~SlowHandshakePeer() {
    listener_.Stop();  // no more answers_ or connections_ after this
    for (std::thread& t : answers_) t.join();
    for (int c : connections_) ::close(c);
  }
  std::string address() const { return listener_.address(); }
  int accepted() const { return accepted_.load(); }

 private:
  const std::chrono::milliseconds delay_;
  std::atomic<int> accepted_{0};
  std::vector<int> connections_;
  std::vector<std::thread> answers_;
  LoopbackListener listener_{[this](int c) {
    ++accepted_;
    connections_.push_back(c);
    answers_.emplace_back([this, c] {
      std::this_thread::sleep_for(delay_);
      static constexpr char kSettings[9] = {0, 0, 0, 4, 0, 0, 0, 0, 0};
      (void)!::send(c, kSettings, sizeof kSettings, MSG_NOSIGNAL);
    });
  }};
};

// Keeps asking `channel` to connect for `total`, as a caller with calls to make
// would; returns when the window is over.
void WantConnected(grpc::Channel& channel, std::chrono::milliseconds total) {
  const Clock::time_point end = Clock::now() + total;
  while (Clock::now() < end) channel.WaitForConnected(std::chrono::system_clock::now() + std::chrono::milliseconds(50));
}

constexpr std::chrono::milliseconds kFrom{2000}, kTo{5000}, kLongTo{7000};

// With the backoff capped at 300 ms, the 3 s from 2 s to 5 s after the first
// attempt hold about ten; four is far below that and far above what gRPC's own
// backoff allows (next test).
TEST(ReconnectTest, ACappedChannelKeepsTryingAtLeastEveryCap) {
  RefusingPeer peer;
  std::shared_ptr<grpc::Channel> channel = DialReconnectingWithin(peer.address(), 300);
  const Clock::time_point start = Clock::now();
  WantConnected(*channel, kTo + std::chrono::milliseconds(200));
  EXPECT_GE(peer.AttemptsBetween(start, kFrom, kTo), 4);
}

// Every channel the services make is Dial()ed, capped at kReconnectBackoffCapMs
// (1 s, ±20 %): the 5 s from 2 s to 7 s after the first attempt hold about five
// and at least four; three leaves room for a loaded machine's late timers and is
// more than gRPC's own backoff ever allows there (next test). Ratings' channel to
// Accounts was once left uncapped, and a leaderboard read 3 s after Accounts came
// back still failed with the connect error of the outage.
TEST(ReconnectTest, EveryDialedChannelKeepsTryingAboutEverySecond) {
  RefusingPeer peer;
  std::shared_ptr<grpc::Channel> channel = Dial(peer.address());
  const Clock::time_point start = Clock::now();
  WantConnected(*channel, kLongTo + std::chrono::milliseconds(200));
  EXPECT_GE(peer.AttemptsBetween(start, kFrom, kLongTo), 3);
}

// The negative control: a channel with gRPC's own backoff (what Dial made before
// the cap) waits about 1 s, 1.6 s, 2.6 s and 4.1 s between attempts, each ±20 %
// on its own: attempts at about 1 s (1.2 s at the latest), 2.6 s, 5.2 s and 9.3 s
// (7.4 s at the earliest), so at most two in either window.
TEST(ReconnectTest, NegativeControlAnUncappedChannelWaitsLongerAndLonger) {
  RefusingPeer peer;
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(peer.address(), grpc::InsecureChannelCredentials(), KeepaliveChannelArguments());
  const Clock::time_point start = Clock::now();
  WantConnected(*channel, kLongTo + std::chrono::milliseconds(200));
  EXPECT_LE(peer.AttemptsBetween(start, kFrom, kTo), 2);
  EXPECT_LE(peer.AttemptsBetween(start, kFrom, kLongTo), 2);
}

// A reconnect backoff of 100 ms must not also be a connection attempt's time to
// finish its handshake: a peer answering in 400 ms is connected at the first
// attempt. The negative control sets GRPC_ARG_MIN_RECONNECT_BACKOFF_MS to 100 ms
// as Dial once did, which gRPC takes as the attempt's timeout: the first attempts
// are given up before the peer answers (a tournament's first game once failed so
// on a loaded machine: "connection attempt timed out before receiving SETTINGS
// frame").
TEST(ReconnectTest, ASlowHandshakeConnectsAtTheFirstAttempt) {
  SlowHandshakePeer peer(std::chrono::milliseconds(400));
  std::shared_ptr<grpc::Channel> channel = Dial(peer.address());
  EXPECT_TRUE(channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(5)));
  EXPECT_EQ(peer.accepted(), 1);
}

TEST(ReconnectTest, NegativeControlAHundredMillisecondConnectTimeoutGivesUpSlowHandshakes) {
  SlowHandshakePeer peer(std::chrono::milliseconds(400));
  grpc::ChannelArguments args = KeepaliveChannelArguments();
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, kReconnectBackoffCapMs);
  std::shared_ptr<grpc::Channel> channel =
      grpc::CreateCustomChannel(peer.address(), grpc::InsecureChannelCredentials(), args);
  channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(5));
  EXPECT_GE(peer.accepted(), 2);
}

}  // namespace
}  // namespace metropolis::services
