#include "services/matchmaker/tournaments/entrants_store.h"

#include <pqxx/pqxx>

#include "lib/storage/pg_status.h"

namespace metropolis::matchmaker {

grpc::Status PgEntrantDirectory::Names(const std::vector<int64_t>& ids, std::unordered_map<int64_t, std::string>* out) {
  out->clear();
  return storage::RunPg(pool_, "entrant names", [&](pqxx::connection& c) {
    pqxx::read_transaction tx(c);
    for (const auto& r :
         tx.exec_params("SELECT id, name FROM identities WHERE id = ANY($1::bigint[])", storage::IntArray(ids)))
      (*out)[r[0].as<int64_t>()] = r[1].as<std::string>();
    return grpc::Status::OK;
  });
}

}  // namespace metropolis::matchmaker
