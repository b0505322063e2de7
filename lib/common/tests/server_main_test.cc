// StartServer and Serve (server_main.h) on a port that is already taken. gRPC
// turns SO_REUSEPORT on by default, and then a second server on the port of a
// running one starts without a word and the kernel splits the connections
// between the two; every service is built by StartServer, which turns it off.
#include "lib/common/server_main.h"

#include <arpa/inet.h>
#include <grpcpp/server.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace metropolis::services {
namespace {

// A plain socket listening on a loopback port, without SO_REUSEPORT: what
// another program (not a gRPC server of ours) holding the port looks like.
class PlainListener {
 public:
  PlainListener() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
      ::close(fd_);
      throw std::runtime_error("PlainListener: cannot listen on loopback");
    }
    port_ = ntohs(addr.sin_port);
  }
  ~PlainListener() { ::close(fd_); }
  PlainListener(const PlainListener&) = delete;
  PlainListener& operator=(const PlainListener&) = delete;
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

ServeOptions OptionsFor(const std::string& listen) {
  ServeOptions options;
  options.program = "metropolis-test";
  options.listen = listen;
  options.max_calls = 8;
  return options;
}

// The case that used to pass silently: both servers built the way every service
// builds its own, the second on the first one's port.
TEST(StartServer, RefusesThePortOfAnotherServer) {
  int first_port = 0;
  std::string error;
  std::unique_ptr<grpc::Server> first = StartServer(OptionsFor("127.0.0.1:0"), {}, &first_port, &error);
  ASSERT_TRUE(first) << error;
  ASSERT_GT(first_port, 0);

  const std::string taken = "127.0.0.1:" + std::to_string(first_port);
  int second_port = -1;
  std::unique_ptr<grpc::Server> second = StartServer(OptionsFor(taken), {}, &second_port, &error);
  EXPECT_FALSE(second) << "a second server started on " << taken << ", which another server listens on";
  EXPECT_EQ(second_port, 0);
  EXPECT_NE(error.find("cannot listen on " + taken + ": the port is already taken"), std::string::npos) << error;
}

TEST(StartServer, RefusesAPortAnotherProgramListensOn) {
  PlainListener holder;
  const std::string taken = "127.0.0.1:" + std::to_string(holder.port());
  int port = -1;
  std::string error;
  std::unique_ptr<grpc::Server> server = StartServer(OptionsFor(taken), {}, &port, &error);
  EXPECT_FALSE(server);
  EXPECT_NE(error.find("cannot listen on " + taken + ": the port is already taken"), std::string::npos) << error;
}

// What the program does with it: says so on stderr, naming itself and the
// address, and exits with the code given for it. The port is held by a plain
// socket, which refuses gRPC's bind whatever its options, so that Serve cannot
// start and wait for a signal here.
TEST(Serve, ExitsWithTheListenFailureCodeWhenThePortIsTaken) {
  sigset_t before;
  pthread_sigmask(SIG_SETMASK, nullptr, &before);
  PlainListener holder;
  const std::string taken = "127.0.0.1:" + std::to_string(holder.port());
  ServeOptions options = OptionsFor(taken);
  options.listen_failure_exit_code = 7;
  int code = 0;
  std::string stderr_text;
  {
    ShutdownSignals signals;  // blocks SIGINT and SIGTERM in this thread: restored below
    testing::internal::CaptureStderr();
    code = Serve(options, {}, &signals);
    stderr_text = testing::internal::GetCapturedStderr();
  }
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  EXPECT_EQ(code, 7);
  EXPECT_NE(stderr_text.find("metropolis-test: cannot listen on " + taken + ": the port is already taken"),
            std::string::npos)
      << stderr_text;
}

}  // namespace
}  // namespace metropolis::services
