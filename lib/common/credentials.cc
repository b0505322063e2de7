#include "lib/common/credentials.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/support/channel_arguments.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "lib/common/reconnect.h"

namespace metropolis::services {
namespace {

// At most this much is read from a PEM file: certificates chains are a few kB,
// and a path given by mistake (a log, a device) must not be read whole.
constexpr std::streamsize kMaxPemBytes = 1 << 20;

bool ReadFile(const std::string& path, std::string* out, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot be read";
    return false;
  }
  std::string text(size_t(kMaxPemBytes) + 1, '\0');
  in.read(text.data(), kMaxPemBytes + 1);
  text.resize(size_t(in.gcount()));
  if (text.size() > size_t(kMaxPemBytes)) {
    *error = path + ": larger than " + std::to_string(kMaxPemBytes) + " bytes, not a PEM file";
    return false;
  }
  *out = std::move(text);
  return true;
}

// The first error OpenSSL queued, cleared with the rest, for a message.
std::string OpenSslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "not PEM";
  char text[256];
  ERR_error_string_n(code, text, sizeof text);
  return text;
}

struct BioDeleter {
  void operator()(BIO* b) const { BIO_free(b); }
};
using BioPtr = std::unique_ptr<BIO, BioDeleter>;

BioPtr Bio(const std::string& pem) { return BioPtr(BIO_new_mem_buf(pem.data(), int(pem.size()))); }

std::shared_ptr<grpc::ChannelCredentials>& ProcessCredentials() {
  static std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
  return credentials;
}

bool& ProcessTls() {
  static bool tls = false;
  return tls;
}

}  // namespace

bool LoadServerTls(const std::string& cert_file, const std::string& key_file, ServerTls* out, std::string* error) {
  *out = {};
  if (cert_file.empty() && key_file.empty()) return true;
  if (cert_file.empty() || key_file.empty()) {
    *error = "--tls-cert and --tls-key go together: give both, or neither for plaintext";
    return false;
  }
  ServerTls tls;
  if (!ReadFile(cert_file, &tls.cert_pem, error) || !ReadFile(key_file, &tls.key_pem, error)) return false;
  ERR_clear_error();
  BioPtr cert_bio = Bio(tls.cert_pem);
  X509* cert = PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr);
  if (!cert) {
    *error = cert_file + ": no PEM certificate (" + OpenSslError() + ")";
    return false;
  }
  BioPtr key_bio = Bio(tls.key_pem);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr);
  if (!key) {
    X509_free(cert);
    *error = key_file + ": no unencrypted PEM private key (" + OpenSslError() + ")";
    return false;
  }
  const bool match = X509_check_private_key(cert, key) == 1;
  ERR_clear_error();
  EVP_PKEY_free(key);
  X509_free(cert);
  if (!match) {
    *error = key_file + ": not the private key of the certificate in " + cert_file;
    return false;
  }
  *out = std::move(tls);
  return true;
}

bool LoadCaBundle(const std::string& ca_file, std::string* ca_pem, std::string* error) {
  std::string pem;
  if (!ReadFile(ca_file, &pem, error)) return false;
  ERR_clear_error();
  BioPtr bio = Bio(pem);
  X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr);
  if (!cert) {
    *error = ca_file + ": no PEM certificate (" + OpenSslError() + ")";
    return false;
  }
  X509_free(cert);
  *ca_pem = std::move(pem);
  return true;
}

std::shared_ptr<grpc::ServerCredentials> MakeServerCredentials(const ServerTls& tls) {
  if (!tls.enabled()) return grpc::InsecureServerCredentials();
  grpc::SslServerCredentialsOptions options;
  options.pem_key_cert_pairs.push_back({tls.key_pem, tls.cert_pem});
  return grpc::SslServerCredentials(options);
}

std::shared_ptr<grpc::ChannelCredentials> MakeChannelCredentials(const std::string& ca_pem) {
  if (ca_pem.empty()) return grpc::InsecureChannelCredentials();
  grpc::SslCredentialsOptions options;
  options.pem_root_certs = ca_pem;
  return grpc::SslCredentials(options);
}

void SetChannelTls(const std::string& ca_pem) {
  ProcessCredentials() = MakeChannelCredentials(ca_pem);
  ProcessTls() = !ca_pem.empty();
}

bool ChannelTlsEnabled() { return ProcessTls(); }

grpc::ChannelArguments KeepaliveChannelArguments() {
  grpc::ChannelArguments args;
  // A peer cut off by the network sends no reset: without pings a stream waiting
  // for its next message would wait until the link came back. Pings while calls
  // are open find a silent peer within kKeepaliveTimeMs + kKeepaliveTimeoutMs, the
  // stream ends UNAVAILABLE and its caller goes to another host.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, kKeepaliveTimeMs);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, kKeepaliveTimeoutMs);
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 0);
  // A seat's stream is quiet while the others decide: keep pinging without data.
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  args.SetInt(GRPC_ARG_HTTP2_MIN_SENT_PING_INTERVAL_WITHOUT_DATA_MS, kKeepaliveTimeMs);
  return args;
}

void AllowKeepalivePings(grpc::ServerBuilder* builder) {
  // The server's side of KeepaliveChannelArguments: by default a server answers
  // pings more often than every 5 minutes with GOAWAY ("too many pings").
  builder->AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, kKeepaliveTimeMs / 2);
  builder->AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
  // And the server pings its own callers, so a host learns of a vanished seat too.
  builder->AddChannelArgument(GRPC_ARG_KEEPALIVE_TIME_MS, 2 * kKeepaliveTimeMs);
  builder->AddChannelArgument(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, kKeepaliveTimeoutMs);
}

std::shared_ptr<grpc::Channel> Dial(const std::string& address) {
  return DialReconnectingWithin(address, kReconnectBackoffCapMs);
}

std::shared_ptr<grpc::Channel> DialReconnectingWithin(const std::string& address, int max_backoff_ms) {
  grpc::ChannelArguments args = KeepaliveChannelArguments();
  // gRPC's reconnect backoff grows to 120 s: a peer back after a restart would
  // stay unreachable that long from a channel that failed often meanwhile, and
  // calls made on it in that time fail at once with the last connect error.
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, std::min(max_backoff_ms, 100));
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, max_backoff_ms);
  // Not GRPC_ARG_MIN_RECONNECT_BACKOFF_MS: despite its name it is the least time
  // a connection attempt is given to finish its handshake (default 20 s). Set to
  // 100 ms it failed attempts on a loaded machine ("connection attempt timed out
  // before receiving SETTINGS frame"), and a tournament's first game waited for
  // the next pass.
  return grpc::CreateCustomChannel(address, ProcessCredentials(), args);
}

}  // namespace metropolis::services
