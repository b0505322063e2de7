// TLS for gRPC, written once for every program that serves or dials: reading
// and checking PEM files, the server's credentials from a certificate and its
// key, and the credentials every outgoing channel of the process uses.
//
// A process decides once, at start, how it dials: SetChannelTls(ca) with the CA
// bundle that signed the services' certificates, or nothing for plaintext. Every
// channel is then made by Dial(), so no call site chooses on its own and a
// program cannot end up half plaintext (docs/SECURITY.md).
#pragma once

#include <memory>
#include <string>

namespace grpc {
class Channel;
class ChannelArguments;
class ServerBuilder;
class ChannelCredentials;
class ServerCredentials;
}  // namespace grpc

namespace metropolis::services {

// A server's certificate chain and private key, PEM.
struct ServerTls {
  std::string cert_pem, key_pem;
  bool enabled() const { return !cert_pem.empty(); }
};

// Reads `cert_file` and `key_file` and checks that they hold a certificate and
// the private key that belongs to it (OpenSSL parses both). Both empty: plaintext
// (*out left empty). False with *error naming the file and what is wrong.
bool LoadServerTls(const std::string& cert_file, const std::string& key_file, ServerTls* out, std::string* error);

// Reads a CA bundle and checks it holds at least one certificate. False with
// *error naming the file and what is wrong.
bool LoadCaBundle(const std::string& ca_file, std::string* ca_pem, std::string* error);

// SslServerCredentials for `tls`, or insecure ones when it is not enabled.
std::shared_ptr<grpc::ServerCredentials> MakeServerCredentials(const ServerTls& tls);

// SslCredentials verifying servers against `ca_pem`, or insecure ones when it is
// empty.
std::shared_ptr<grpc::ChannelCredentials> MakeChannelCredentials(const std::string& ca_pem);

// Makes every later Dial() use TLS verified against `ca_pem` (empty: plaintext,
// the default). Call once at start, before any thread dials.
void SetChannelTls(const std::string& ca_pem);
// Whether SetChannelTls was given a CA bundle.
bool ChannelTlsEnabled();

// How often an open call's connection is pinged, and how long a ping may go
// unanswered before the connection counts as lost (KeepaliveChannelArguments).
inline constexpr int kKeepaliveTimeMs = 10000;
inline constexpr int kKeepaliveTimeoutMs = 5000;

// The arguments every Dial()ed channel gets: keepalive pings while calls are open.
grpc::ChannelArguments KeepaliveChannelArguments();
// Lets a server accept those pings, and ping its own callers (server_main.cc).
void AllowKeepalivePings(grpc::ServerBuilder* builder);

// How long, at most, a Dial()ed channel whose peer is down waits between two
// connection attempts. gRPC's own backoff grows to 2 minutes, for fleets where
// thousands of clients would stampede a peer that comes back; here a peer is one
// of a few services, and a ladder must not stay cut off from Accounts or Ratings
// for minutes after they restarted (a fresh connection attempt every second is
// nothing to a service that is up).
inline constexpr int kReconnectBackoffCapMs = 1000;

// A channel to `address` with the process's credentials (SetChannelTls),
// keepalive pings (KeepaliveChannelArguments) and its reconnect backoff capped
// at kReconnectBackoffCapMs (DialReconnectingWithin, reconnect.h).
std::shared_ptr<grpc::Channel> Dial(const std::string& address);

}  // namespace metropolis::services
