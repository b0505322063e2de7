// TLS credentials (credentials.h) and secret comparison (secret.h): PEM files
// checked with precise errors, and over real gRPC calls a TLS server reached by
// a client that trusts its CA, refused to plaintext clients and to clients that
// trust another CA; and a message over the size limit refused.
#include "lib/common/credentials.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "grpc/health/v1/health.grpc.pb.h"
#include "lib/common/secret.h"

namespace metropolis::services {
namespace {

namespace fs = std::filesystem;
using grpc::health::v1::Health;

// A throwaway CA and a server certificate for 127.0.0.1 and localhost signed by
// it, made with the openssl command (as an operator would), plus a second CA.
class Pki : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char pattern[] = "/tmp/credentials_test.XXXXXX";
    dir_ = ::mkdtemp(pattern);
    ASSERT_FALSE(dir_.empty());
    const std::string d = dir_.string();
    const std::string script =
        "set -e; cd '" + d +
        "'; exec 2>openssl.log;"
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 1 -subj /CN=test-ca;"
        "openssl req -x509 -newkey rsa:2048 -nodes -keyout other.key -out other.pem -days 1 -subj /CN=other-ca;"
        "openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost;"
        "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n' > san.ext;"
        "openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 1 "
        "-extfile san.ext;"
        "echo not a certificate > garbage.pem";
    ASSERT_EQ(std::system(("sh -c \"" + script + "\"").c_str()), 0) << "openssl failed, see " << d << "/openssl.log";
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string File(const std::string& name) { return (dir_ / name).string(); }
  static std::string Read(const std::string& name) {
    std::ifstream in(File(name));
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  static fs::path dir_;
};
fs::path Pki::dir_;

TEST_F(Pki, LoadsAMatchingCertificateAndKey) {
  ServerTls tls;
  std::string error;
  ASSERT_TRUE(LoadServerTls(File("server.pem"), File("server.key"), &tls, &error)) << error;
  EXPECT_TRUE(tls.enabled());
  EXPECT_EQ(tls.cert_pem, Read("server.pem"));
}

TEST_F(Pki, NeitherFileMeansPlaintext) {
  ServerTls tls;
  std::string error;
  ASSERT_TRUE(LoadServerTls("", "", &tls, &error));
  EXPECT_FALSE(tls.enabled());
}

TEST_F(Pki, RefusesHalfAPairMissingFilesGarbageAndAKeyOfAnotherCertificate) {
  ServerTls tls;
  std::string error;
  EXPECT_FALSE(LoadServerTls(File("server.pem"), "", &tls, &error));
  EXPECT_EQ(error, "--tls-cert and --tls-key go together: give both, or neither for plaintext");
  EXPECT_FALSE(LoadServerTls(File("missing.pem"), File("server.key"), &tls, &error));
  EXPECT_EQ(error, File("missing.pem") + ": cannot be read");
  EXPECT_FALSE(LoadServerTls(File("garbage.pem"), File("server.key"), &tls, &error));
  EXPECT_EQ(error.rfind(File("garbage.pem") + ": no PEM certificate", 0), 0u) << error;
  EXPECT_FALSE(LoadServerTls(File("server.pem"), File("garbage.pem"), &tls, &error));
  EXPECT_EQ(error.rfind(File("garbage.pem") + ": no unencrypted PEM private key", 0), 0u) << error;
  EXPECT_FALSE(LoadServerTls(File("server.pem"), File("other.key"), &tls, &error));
  EXPECT_EQ(error, File("other.key") + ": not the private key of the certificate in " + File("server.pem"));
  EXPECT_FALSE(tls.enabled());
}

TEST_F(Pki, LoadsACaBundleAndRefusesGarbage) {
  std::string pem, error;
  ASSERT_TRUE(LoadCaBundle(File("ca.pem"), &pem, &error)) << error;
  EXPECT_EQ(pem, Read("ca.pem"));
  EXPECT_FALSE(LoadCaBundle(File("garbage.pem"), &pem, &error));
  EXPECT_EQ(error.rfind(File("garbage.pem") + ": no PEM certificate", 0), 0u) << error;
}

// Answers OK for the whole server ("") and NOT_FOUND for any other name.
class HealthService final : public Health::Service {
  grpc::Status Check(grpc::ServerContext*, const grpc::health::v1::HealthCheckRequest* request,
                     grpc::health::v1::HealthCheckResponse* response) override {
    if (!request->service().empty()) return {grpc::StatusCode::NOT_FOUND, "unknown service"};
    response->set_status(grpc::health::v1::HealthCheckResponse::SERVING);
    return grpc::Status::OK;
  }
};

// A health service over TLS, taking messages of at most 1 kB.
struct TlsServer {
  explicit TlsServer(const ServerTls& tls) {
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", MakeServerCredentials(tls), &port);
    builder.RegisterService(&service);
    builder.SetMaxReceiveMessageSize(1024);
    server = builder.BuildAndStart();
  }
  ~TlsServer() { server->Shutdown(); }
  grpc::Status Check(const std::shared_ptr<grpc::ChannelCredentials>& credentials, const std::string& host,
                     size_t name_bytes = 0) const {
    auto stub = Health::NewStub(grpc::CreateChannel(host + ":" + std::to_string(port), credentials));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    grpc::health::v1::HealthCheckRequest request;
    request.set_service(std::string(name_bytes, 'x'));
    grpc::health::v1::HealthCheckResponse response;
    return stub->Check(&context, request, &response);
  }
  HealthService service;
  int port = 0;
  std::unique_ptr<grpc::Server> server;
};

TEST_F(Pki, ATlsServerAnswersClientsThatTrustItsCaOnly) {
  ServerTls tls;
  std::string error, ca, other;
  ASSERT_TRUE(LoadServerTls(File("server.pem"), File("server.key"), &tls, &error)) << error;
  ASSERT_TRUE(LoadCaBundle(File("ca.pem"), &ca, &error)) << error;
  ASSERT_TRUE(LoadCaBundle(File("other.pem"), &other, &error)) << error;
  TlsServer server(tls);
  ASSERT_NE(server.port, 0);
  EXPECT_TRUE(server.Check(MakeChannelCredentials(ca), "127.0.0.1").ok());
  EXPECT_TRUE(server.Check(MakeChannelCredentials(ca), "localhost").ok());
  EXPECT_EQ(server.Check(MakeChannelCredentials(""), "127.0.0.1").error_code(), grpc::StatusCode::UNAVAILABLE);
  EXPECT_EQ(server.Check(MakeChannelCredentials(other), "127.0.0.1").error_code(), grpc::StatusCode::UNAVAILABLE);
}

TEST_F(Pki, DialUsesTheProcessCredentials) {
  ServerTls tls;
  std::string error, ca;
  ASSERT_TRUE(LoadServerTls(File("server.pem"), File("server.key"), &tls, &error)) << error;
  ASSERT_TRUE(LoadCaBundle(File("ca.pem"), &ca, &error)) << error;
  TlsServer server(tls);
  auto check = [&] {
    auto stub = Health::NewStub(Dial("127.0.0.1:" + std::to_string(server.port)));
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
    grpc::health::v1::HealthCheckResponse response;
    return stub->Check(&context, {}, &response);
  };
  EXPECT_FALSE(ChannelTlsEnabled());
  EXPECT_EQ(check().error_code(), grpc::StatusCode::UNAVAILABLE);
  SetChannelTls(ca);
  EXPECT_TRUE(ChannelTlsEnabled());
  EXPECT_TRUE(check().ok());
  SetChannelTls("");
  EXPECT_FALSE(ChannelTlsEnabled());
}

TEST_F(Pki, AMessageOverTheLimitIsResourceExhausted) {
  ServerTls tls;
  std::string error, ca;
  ASSERT_TRUE(LoadServerTls(File("server.pem"), File("server.key"), &tls, &error)) << error;
  ASSERT_TRUE(LoadCaBundle(File("ca.pem"), &ca, &error)) << error;
  TlsServer server(tls);
  // An unknown name is NOT_FOUND: the call got through.
  EXPECT_EQ(server.Check(MakeChannelCredentials(ca), "127.0.0.1", 900).error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_EQ(server.Check(MakeChannelCredentials(ca), "127.0.0.1", 2000).error_code(),
            grpc::StatusCode::RESOURCE_EXHAUSTED);
}

TEST(SameSecret, MatchesEqualSecretsOnlyAndNeverAnEmptyOne) {
  EXPECT_TRUE(SameSecret("host-0123456789abcdef", "host-0123456789abcdef"));
  EXPECT_FALSE(SameSecret("host-0123456789abcdeF", "host-0123456789abcdef"));
  EXPECT_FALSE(SameSecret("host-0123456789abcde", "host-0123456789abcdef"));
  EXPECT_FALSE(SameSecret("", "x"));
  EXPECT_FALSE(SameSecret("", ""));
}

}  // namespace
}  // namespace metropolis::services
