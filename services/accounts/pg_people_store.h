// People in PostgreSQL (migrations/accounts/): player_passwords, web_sessions,
// web_seats and identity_renames beside identities and api_tokens. A person is
// created with their password in one transaction. Seat tokens are stored sealed
// (seat_sealer.h); one stored in the clear before they were is still answered,
// and sealed in its row when read or swept (SealClearSeats).
#pragma once

#include <cstdint>

#include "services/accounts/people_store.h"
#include "services/accounts/seat_sealer.h"

namespace metropolis::storage {
class PgPool;
}

namespace metropolis::accounts {

class PgPeopleStore final : public PeopleStore {
 public:
  // `sealer` seals and opens the seat tokens; null (a process given no seat key,
  // which only one without a gateway token may be, so nobody calls People there):
  // the seat calls answer FAILED_PRECONDITION and nothing is stored.
  PgPeopleStore(storage::PgPool* pool, const SeatSealer* sealer);

  grpc::Status CreatePerson(const std::string& name, const std::string& password_hash, Person* out) override;
  grpc::Status FindPasswords(const std::string& name, std::vector<PasswordCandidate>* out) override;
  grpc::Status TakeRenames(int64_t identity_id, std::vector<Rename>* out) override;
  grpc::Status FindPerson(int64_t identity_id, Person* out) override;
  grpc::Status CreateSession(const std::string& token_sha256, int64_t identity_id, int64_t expires_unix_ms) override;
  grpc::Status FindSession(const std::string& token_sha256, int64_t now_unix_ms, WebSession* out) override;
  grpc::Status DeleteSession(const std::string& token_sha256) override;
  grpc::Status FindPasswordHash(int64_t identity_id, std::string* hash) override;
  grpc::Status ReplacePassword(int64_t identity_id, const std::string& old_hash, const std::string& new_hash,
                               const std::string& keep_token_sha256, int* ended) override;
  grpc::Status ListSessions(int64_t identity_id, int64_t now_unix_ms, const std::string& current_token_sha256,
                            std::vector<SessionInfo>* out) override;
  grpc::Status EndSession(int64_t identity_id, const std::string& id) override;
  grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) override;
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) override;
  grpc::Status LatestOpenSeat(int64_t identity_id, HeldSeat* out) override;
  grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) override;
  grpc::Status ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) override;
  grpc::Status OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) override;
  grpc::Status RevokePersonToken(int64_t identity_id, int64_t token_id) override;
  grpc::Status CreatePersonBot(int64_t person_id, const std::string& name, int max_bots, PersonBot* out) override;
  grpc::Status ListPersonBots(int64_t person_id, std::vector<PersonBot>* out) override;
  grpc::Status InsertBotToken(int64_t person_id, const std::string& bot, const std::string& sha256,
                              const std::string& label, int max_live, int64_t* token_id) override;
  grpc::Status ListBotTokens(int64_t person_id, const std::string& bot, std::vector<TokenInfo>* out) override;
  grpc::Status RevokeBotToken(int64_t person_id, const std::string& bot, int64_t token_id) override;

  // Seals every seat token still stored in the clear (written before tokens were
  // sealed, or by a replica of an older version meanwhile), a batch of rows per
  // transaction; *sealed counts them. Rows another replica is sealing are left
  // to it. Run at start-up, so that finished seats, which nobody reads again,
  // do not keep their tokens in the clear.
  grpc::Status SealClearSeats(int64_t* sealed);

 private:
  // The stored text of `seat`'s token for its row: sealed, or (negative control
  // "sealed_seats") the token itself.
  std::string Stored(int64_t identity_id, const HeldSeat& seat) const;
  // `seat` as read, its token the stored text: the token opened in place. A token
  // stored in the clear is kept, and *reseal is the text to store for it instead
  // (empty when there is none to store).
  grpc::Status Open(int64_t identity_id, HeldSeat* seat, std::string* reseal) const;
  SeatPlace Place(int64_t identity_id, const HeldSeat& seat) const;
  // The seat of `identity_id` in `*game_id`, or (null) its latest open one.
  grpc::Status ReadSeat(int64_t identity_id, const std::string* game_id, HeldSeat* out);

  storage::PgPool* const pool_;
  const SeatSealer* const sealer_;
  // Negative controls (lib/common/negative_control.h): "sealed_seats" stores
  // tokens in the clear and leaves clear ones so; "bound_seats" seals every
  // token for the same place, so that a sealed token opens in any row.
  const bool seal_;
  const bool bind_;
};

}  // namespace metropolis::accounts
