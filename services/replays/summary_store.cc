#include "services/replays/summary_store.h"

#include <map>
#include <string>

namespace metropolis::replays {

void SummaryFrom(const pqxx::row& r, v1::StoredGameSummary* s) {
  s->set_game_id(r[0].as<std::string>());
  s->set_ladder(r[1].as<std::string>());
  s->set_season(r[2].as<uint32_t>());
  s->set_tournament(r[3].as<std::string>());
  s->mutable_result()->set_reason(v1::EndReason(r[4].as<int>()));
  s->mutable_result()->set_winner(r[5].as<int>());
  s->mutable_result()->set_actions(r[6].as<uint32_t>());
  s->set_finished_unix_ms(r[7].as<int64_t>());
  auto vp = r[8].as_array();
  for (auto e = vp.get_next(); e.first != pqxx::array_parser::done; e = vp.get_next())
    if (e.first == pqxx::array_parser::string_value) s->mutable_result()->add_vp(uint32_t(std::stoi(e.second)));
}

void AddSeats(pqxx::transaction_base& tx, google::protobuf::RepeatedPtrField<v1::StoredGameSummary>* games,
              bool outcome) {
  if (games->empty()) return;
  // Stored game ids are letters, digits, '-' and '_' (ValidGameId): the array needs no quoting.
  std::string ids = "{";
  std::map<std::string, v1::StoredGameSummary*> by_id;
  for (v1::StoredGameSummary& g : *games) {
    ids += (by_id.empty() ? "" : ",") + g.game_id();
    by_id[g.game_id()] = &g;
  }
  ids += "}";
  const pqxx::result seats = tx.exec_params(
      "SELECT game_id, seat, coalesce(identity_id, 0), name, fallback_decisions, forfeited "
      "FROM game_seats WHERE game_id = ANY($1::text[]) ORDER BY game_id, seat",
      ids);
  for (const auto& seat : seats) {
    v1::SeatRecord* sr = by_id.at(seat[0].as<std::string>())->add_seats();
    sr->set_seat(seat[1].as<uint32_t>());
    sr->set_identity_id(seat[2].as<int64_t>());
    sr->set_name(seat[3].as<std::string>());
    if (outcome) {
      sr->set_fallback_decisions(seat[4].as<uint32_t>());
      sr->set_forfeited(seat[5].as<bool>());
    }
  }
}

}  // namespace metropolis::replays
