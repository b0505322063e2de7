// An in-memory fake of the people's store (the People service), for the tests
// of people.h and play_api.h.
#pragma once

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "services/gateway/people.h"

namespace metropolis::gateway {

class FakeStore : public PeopleStore {
 public:
  // "hash:" + the password: enough to tell right from wrong, and fast.
  grpc::Status CreatePerson(const std::string& name, const std::string& password, Person* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    for (const auto& [id, p] : people)
      if (Lower(p.first.name) == Lower(name)) return {grpc::StatusCode::ALREADY_EXISTS, "taken"};
    const int64_t id = int64_t(people.size()) + 1;
    people[id] = {{id, name, {}}, "hash:" + password};
    *out = {id, name, {}};
    return grpc::Status::OK;
  }
  grpc::Status CheckPassword(const std::string& name, const std::string& password, Person* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    ++password_lookups;
    for (const auto& [id, p] : people) {
      if (Lower(p.first.name) != Lower(name) || p.second != "hash:" + password) continue;
      *out = p.first;
      out->renamed = std::exchange(untold[id], {});  // told once, as the People service does
      return grpc::Status::OK;
    }
    return {grpc::StatusCode::UNAUTHENTICATED, "wrong name or password"};
  }
  grpc::Status CreateSession(const std::string& sha, int64_t id, int64_t expires) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    sessions[sha] = {people[id].first, sha, expires};
    created[sha] = ++sessions_made;
    return grpc::Status::OK;
  }
  grpc::Status FindSession(const std::string& sha, int64_t now, Session* out) override {
    auto it = sessions.find(sha);
    if (it == sessions.end() || it->second.expires_unix_ms <= now) return {grpc::StatusCode::NOT_FOUND, "none"};
    *out = it->second;
    return grpc::Status::OK;
  }
  grpc::Status DeleteSession(const std::string& sha) override {
    sessions.erase(sha);
    return grpc::Status::OK;
  }
  // As the People service: a wrong old password changes nothing; a right one
  // ends the person's other sessions.
  grpc::Status ChangePassword(int64_t id, const std::string& old_password, const std::string& new_password,
                              const std::string& keep, int* ended) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    ++password_lookups;
    auto person = people.find(id);
    if (person == people.end() || person->second.second != "hash:" + old_password)
      return {grpc::StatusCode::UNAUTHENTICATED, "wrong password"};
    person->second.second = "hash:" + new_password;
    *ended = int(std::erase_if(sessions, [&](const auto& s) { return s.second.person.id == id && s.first != keep; }));
    return grpc::Status::OK;
  }
  grpc::Status ListSessions(int64_t id, int64_t now, const std::string& current,
                            std::vector<SessionInfo>* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    out->clear();
    for (const auto& [sha, s] : sessions)
      if (s.person.id == id && s.expires_unix_ms > now)
        out->push_back({metropolis::people::SessionId(sha), created[sha], s.expires_unix_ms, sha == current});
    std::sort(out->begin(), out->end(),
              [](const auto& a, const auto& b) { return a.created_unix_ms > b.created_unix_ms; });
    return grpc::Status::OK;
  }
  grpc::Status EndSession(int64_t id, const std::string& session_id) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    const size_t ended = std::erase_if(sessions, [&](const auto& s) {
      return s.second.person.id == id && metropolis::people::SessionId(s.first) == session_id;
    });
    if (ended == 0) return {grpc::StatusCode::NOT_FOUND, "you have no session with id '" + session_id + "'"};
    return grpc::Status::OK;
  }
  grpc::Status SaveSeat(int64_t identity_id, const HeldSeat& seat) override {
    seats[{identity_id, seat.game_id}] = seat;
    if (auto it = open_practice.find({identity_id, seat.game_id}); it != open_practice.end())
      it->second.host = seat.host;
    return grpc::Status::OK;
  }
  grpc::Status FindSeat(int64_t identity_id, const std::string& game_id, HeldSeat* out) override {
    auto it = seats.find({identity_id, game_id});
    if (it == seats.end()) return {grpc::StatusCode::NOT_FOUND, "no seat"};
    *out = it->second;
    return grpc::Status::OK;
  }
  grpc::Status LatestOpenSeat(int64_t, HeldSeat*) override { return {grpc::StatusCode::NOT_FOUND, ""}; }
  grpc::Status MarkSeatFinished(int64_t identity_id, const std::string& game_id) override {
    open_practice.erase({identity_id, game_id});
    return grpc::Status::OK;
  }
  // As the People service: counted and reserved in one step.
  grpc::Status ReservePracticeSeat(int64_t identity_id, const std::string& game_id, int max_open) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    int open = 0;
    for (const auto& [key, seat] : open_practice) open += key.first == identity_id;
    if (open >= max_open)
      return {grpc::StatusCode::RESOURCE_EXHAUSTED,
              std::to_string(open) + " practice games unfinished, the most at once is " + std::to_string(max_open)};
    open_practice[{identity_id, game_id}] = {game_id, "", 0};
    return grpc::Status::OK;
  }
  grpc::Status OpenPracticeSeats(int64_t identity_id, std::vector<OpenPracticeSeat>* out) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    out->clear();
    for (const auto& [key, seat] : open_practice)
      if (key.first == identity_id) out->push_back(seat);
    return grpc::Status::OK;
  }
  grpc::Status IssueToken(int64_t identity_id, const std::string&, int64_t* token_id, std::string* token) override {
    if (down) return {grpc::StatusCode::UNAVAILABLE, "down"};
    *token_id = ++issued;
    *token = "mtp_person" + std::to_string(identity_id) + "_" + std::to_string(*token_id);
    return grpc::Status::OK;
  }
  grpc::Status RevokeToken(int64_t, int64_t) override {
    ++revoked;
    return grpc::Status::OK;
  }

  static std::string Lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
  }

  std::map<int64_t, std::pair<Person, std::string>> people;
  std::map<int64_t, std::vector<Rename>> untold;  // renames not told yet, by person
  std::map<std::string, Session> sessions;
  std::map<std::string, int64_t> created;  // a session's order of making, as its creation time
  int64_t sessions_made = 0;
  std::map<std::pair<int64_t, std::string>, HeldSeat> seats;
  // Practice seats and reservations not finished, by person and game.
  std::map<std::pair<int64_t, std::string>, OpenPracticeSeat> open_practice;
  int password_lookups = 0;
  int64_t issued = 0, revoked = 0;
  bool down = false;
};

}  // namespace metropolis::gateway
