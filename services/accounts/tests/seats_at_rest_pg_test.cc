// People's seat tokens encrypted at rest, against a real PostgreSQL (label
// integration), through the Accounts service as its programs wire it
// (AccountsServer with a seat key): what the People RPCs answer, and what a
// reader of the database finds in web_seats. The negative controls
// (docs/FAILURES.md) are shown failing by these: with
// METROPOLIS_REMOVE_PROTECTION=sealed_seats the tokens stay in the clear, and
// with bound_seats a sealed token copied to another row opens there.
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>
#include <gtest/gtest.h>
#include <prometheus/registry.h>

#include <chrono>
#include <memory>
#include <pqxx/pqxx>
#include <string>

#include "lib/common/metrics.h"
#include "lib/storage/pg_pool.h"
#include "lib/storage/tests/test_database.h"
#include "metropolis/v1/people.grpc.pb.h"
#include "services/accounts/pg_people_store.h"
#include "services/accounts/server.h"

namespace metropolis::accounts {
namespace {

constexpr char kGatewayToken[] = "gw-seat-test-secret";
const std::string kSeatKey(32, 'q');
// Game hosts' seat tokens are 16 random bytes in hex.
constexpr char kToken[] = "0a1b2c3d4e5f60718293a4b5c6d7e8f9";

class SeatsAtRestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pool_ = storage::testing::MigratedPool(database_, METROPOLIS_MIGRATIONS_DIR, 4);
    ASSERT_NE(pool_, nullptr);
    Serve(kSeatKey);
  }
  void TearDown() override { StopServing(); }

  // The Accounts service with `seat_key`, started as Serve starts it (the
  // start-up sweep included).
  void Serve(const std::string& seat_key) {
    StopServing();
    accounts_ = std::make_unique<AccountsServer>(
        pool_.get(),
        AccountsConfig{.service_token = "svc-seat-test", .gateway_token = kGatewayToken, .seat_key = seat_key},
        &metrics_);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    accounts_->Register(&builder);
    server_ = builder.BuildAndStart();
    ASSERT_NE(port, 0);
    accounts_->Start();
    people_ = v1::People::NewStub(
        grpc::CreateChannel("127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials()));
  }
  void StopServing() {
    if (server_) server_->Shutdown();
    server_.reset();
    accounts_.reset();
  }

  template <typename Request, typename Response>
  grpc::Status Call(grpc::Status (v1::People::Stub::*method)(grpc::ClientContext*, const Request&, Response*),
                    const Request& request, Response* response) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", std::string("Bearer ") + kGatewayToken);
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    return (people_.get()->*method)(&context, request, response);
  }
  int64_t SignUp(const std::string& name) {
    v1::SignUpRequest request;
    request.set_name(name);
    request.set_password("correct horse battery");
    v1::Person person;
    const grpc::Status s = Call(&v1::People::Stub::SignUp, request, &person);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return person.identity_id();
  }
  void SaveSeat(int64_t identity_id, const std::string& game_id, const std::string& token, uint32_t seat = 2,
                const std::string& host = "10.0.0.5:50051") {
    v1::SaveSeatRequest request;
    request.set_identity_id(identity_id);
    request.mutable_seat()->set_game_id(game_id);
    request.mutable_seat()->set_host(host);
    request.mutable_seat()->set_seat_token(token);
    request.mutable_seat()->set_seat(seat);
    v1::SaveSeatResponse ignored;
    const grpc::Status s = Call(&v1::People::Stub::SaveSeat, request, &ignored);
    EXPECT_TRUE(s.ok()) << s.error_message();
  }
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, v1::WebSeat* out) {
    v1::FindSeatRequest request;
    request.set_identity_id(identity_id);
    request.set_game_id(game_id);
    return Call(&v1::People::Stub::FindSeat, request, out);
  }
  std::string FoundToken(int64_t identity_id, const std::string& game_id) {
    v1::WebSeat seat;
    const grpc::Status s = FindSeat(identity_id, game_id, &seat);
    EXPECT_TRUE(s.ok()) << game_id << ": " << s.error_message();
    return seat.seat_token();
  }
  std::string LatestToken(int64_t identity_id) {
    v1::LatestOpenSeatRequest request;
    request.set_identity_id(identity_id);
    v1::WebSeat seat;
    const grpc::Status s = Call(&v1::People::Stub::LatestOpenSeat, request, &seat);
    EXPECT_TRUE(s.ok()) << s.error_message();
    return seat.seat_token();
  }

  // What a reader of the database sees: the whole row, and its seat_token.
  std::string RawRow(int64_t identity_id, const std::string& game_id) {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    const pqxx::result r = tx.exec_params(
        "SELECT row_to_json(s)::text FROM web_seats s WHERE identity_id = $1 AND game_id = $2", identity_id, game_id);
    return r.empty() ? "" : r[0][0].as<std::string>();
  }
  std::string RawToken(int64_t identity_id, const std::string& game_id) {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    return tx
        .exec_params1("SELECT seat_token FROM web_seats WHERE identity_id = $1 AND game_id = $2", identity_id,
                      game_id)[0]
        .as<std::string>();
  }
  void Sql(const std::string& sql) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec(sql);
    tx.commit();
  }
  // A row as a version that stored tokens in the clear wrote it.
  void PlantClearRow(int64_t identity_id, const std::string& game_id, const std::string& token,
                     const std::string& created_at = "now()", bool finished = false) {
    pqxx::connection db(database_.conninfo());
    pqxx::work tx(db);
    tx.exec_params(
        "INSERT INTO web_seats (identity_id, game_id, seat, host, seat_token, created_at, finished_at) "
        "VALUES ($1, $2, 1, '10.0.0.6:50051', $3, " +
            created_at + ", " + (finished ? "now()" : "NULL") + ")",
        identity_id, game_id, token);
    tx.commit();
  }
  int64_t ClearRows() {
    pqxx::connection db(database_.conninfo());
    pqxx::read_transaction tx(db);
    return tx.exec1("SELECT count(*) FROM web_seats WHERE left(seat_token, 4) <> 'xc1:'")[0].as<int64_t>();
  }

  storage::testing::TestDatabase database_;
  std::unique_ptr<storage::PgPool> pool_;
  prometheus::Registry registry_;
  services::ProcessMetrics metrics_{&registry_};
  std::unique_ptr<AccountsServer> accounts_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::People::Stub> people_;
};

TEST_F(SeatsAtRestTest, AStoredSeatsRowHoldsNoTokenAndTheRpcsAnswerIt) {
  const int64_t alice = SignUp("alice");
  SaveSeat(alice, "g-1", kToken);

  const std::string row = RawRow(alice, "g-1");
  ASSERT_FALSE(row.empty());
  EXPECT_EQ(row.find(kToken), std::string::npos) << row;
  EXPECT_EQ(RawToken(alice, "g-1").rfind("xc1:", 0), 0u) << row;
  EXPECT_EQ(FoundToken(alice, "g-1"), kToken);
  EXPECT_EQ(LatestToken(alice), kToken);

  // Saved again (the seat moved to another host): sealed afresh, for its new row.
  const std::string before = RawToken(alice, "g-1");
  SaveSeat(alice, "g-1", "ffeeddccbbaa99887766554433221100", 2, "10.0.0.7:50051");
  EXPECT_NE(RawToken(alice, "g-1"), before);
  EXPECT_EQ(RawRow(alice, "g-1").find("ffeeddccbbaa99887766554433221100"), std::string::npos);
  EXPECT_EQ(FoundToken(alice, "g-1"), "ffeeddccbbaa99887766554433221100");

  // A restarted service with the same key reads them.
  Serve(kSeatKey);
  EXPECT_EQ(FoundToken(alice, "g-1"), "ffeeddccbbaa99887766554433221100");
}

// Rows written before tokens were sealed are never lost: answered, and sealed in
// their row by the read.
TEST_F(SeatsAtRestTest, ATokenStoredInTheClearIsAnsweredAndSealedWhenRead) {
  const int64_t bob = SignUp("bob");
  PlantClearRow(bob, "g-old", "00112233445566778899aabbccddeeff", "now() - interval '1 hour'");
  PlantClearRow(bob, "g-new", kToken);
  ASSERT_EQ(ClearRows(), 2);

  EXPECT_EQ(FoundToken(bob, "g-old"), "00112233445566778899aabbccddeeff");
  EXPECT_EQ(RawRow(bob, "g-old").find("00112233445566778899aabbccddeeff"), std::string::npos) << RawRow(bob, "g-old");
  EXPECT_EQ(LatestToken(bob), kToken);
  EXPECT_EQ(RawRow(bob, "g-new").find(kToken), std::string::npos) << RawRow(bob, "g-new");
  EXPECT_EQ(ClearRows(), 0);
  // And read again, now sealed.
  EXPECT_EQ(FoundToken(bob, "g-old"), "00112233445566778899aabbccddeeff");
  EXPECT_EQ(LatestToken(bob), kToken);
}

// The start-up sweep seals the rows nobody reads again (finished seats) too,
// over more rows than one batch.
TEST_F(SeatsAtRestTest, TheServiceSealsEveryTokenStoredInTheClearWhenItStarts) {
  const int64_t carol = SignUp("carol");
  Sql("INSERT INTO web_seats (identity_id, game_id, seat, host, seat_token, finished_at) "
      "SELECT " +
      std::to_string(carol) +
      ", 'g-' || n, n % 6, '10.0.0.6:50051', 'token-' || n, now() FROM generate_series(1, 1203) n");
  PlantClearRow(carol, "g-live", kToken);
  ASSERT_EQ(ClearRows(), 1204);

  Serve(kSeatKey);
  EXPECT_EQ(ClearRows(), 0);
  EXPECT_EQ(RawRow(carol, "g-7").find("token-7"), std::string::npos) << RawRow(carol, "g-7");
  EXPECT_EQ(FoundToken(carol, "g-7"), "token-7");
  EXPECT_EQ(FoundToken(carol, "g-1203"), "token-1203");
  EXPECT_EQ(LatestToken(carol), kToken);
}

// A sealed token moved to another row — another person's, another game's, or
// its own row pointed at another host — does not open there: DATA_LOSS, and the
// token is never answered.
TEST_F(SeatsAtRestTest, ASealedTokenCopiedToAnotherRowDoesNotOpen) {
  const int64_t alice = SignUp("alice"), mallory = SignUp("mallory");
  SaveSeat(alice, "g-1", kToken);
  SaveSeat(alice, "g-2", "11111111111111111111111111111111");
  SaveSeat(mallory, "g-1", "22222222222222222222222222222222");
  const std::string sealed = RawToken(alice, "g-1");
  Sql("UPDATE web_seats SET seat_token = '" + sealed +
      "' WHERE game_id = 'g-1' AND identity_id = " + std::to_string(mallory));
  Sql("UPDATE web_seats SET seat_token = '" + sealed + "' WHERE game_id = 'g-2'");
  for (const auto& [who, game] : {std::pair{mallory, "g-1"}, std::pair{alice, "g-2"}}) {
    v1::WebSeat seat;
    const grpc::Status s = FindSeat(who, game, &seat);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::DATA_LOSS) << who << " " << game;
    EXPECT_EQ(s.error_message(), "the seat token stored for identity " + std::to_string(who) + " in game '" + game +
                                     "' does not open with this service's seat key: sealed under another key, "
                                     "altered, or sealed for another row");
    EXPECT_EQ(seat.seat_token(), "");
  }
  // Its own row, sent to another host: the token would go to whoever is there.
  Sql("UPDATE web_seats SET host = 'attacker.example:50051' WHERE game_id = 'g-1' AND identity_id = " +
      std::to_string(alice));
  v1::WebSeat seat;
  EXPECT_EQ(FindSeat(alice, "g-1", &seat).error_code(), grpc::StatusCode::DATA_LOSS);
  EXPECT_EQ(seat.seat_token(), "");
}

TEST_F(SeatsAtRestTest, AnotherKeyOpensNothingAndChangesNothing) {
  const int64_t alice = SignUp("alice");
  SaveSeat(alice, "g-1", kToken);
  const std::string sealed = RawToken(alice, "g-1");
  Serve(std::string(32, 'z'));
  v1::WebSeat seat;
  EXPECT_EQ(FindSeat(alice, "g-1", &seat).error_code(), grpc::StatusCode::DATA_LOSS);
  EXPECT_EQ(RawToken(alice, "g-1"), sealed);  // not sealed again, nor dropped
  Serve(kSeatKey);
  EXPECT_EQ(FoundToken(alice, "g-1"), kToken);
}

// A store given no key (a process without a gateway token) keeps no seat.
TEST_F(SeatsAtRestTest, AStoreWithoutAKeyKeepsNoSeat) {
  PgPeopleStore store(pool_.get(), nullptr);
  const HeldSeat seat{"g-1", "10.0.0.5:50051", kToken, 2};
  HeldSeat found;
  for (const grpc::Status& s :
       {store.SaveSeat(1, seat), store.FindSeat(1, "g-1", &found), store.LatestOpenSeat(1, &found)}) {
    EXPECT_EQ(s.error_code(), grpc::StatusCode::FAILED_PRECONDITION);
    EXPECT_EQ(s.error_message(), "this Accounts service has no seat key (--seat-key-file): it keeps no seats");
  }
  int64_t sealed = -1;
  EXPECT_TRUE(store.SealClearSeats(&sealed).ok());
  EXPECT_EQ(sealed, 0);
}

}  // namespace
}  // namespace metropolis::accounts
