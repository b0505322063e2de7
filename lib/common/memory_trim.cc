#include "lib/common/memory_trim.h"

#include <malloc.h>

namespace metropolis::services {

bool TrimFreeMemory() { return ::malloc_trim(0) == 1; }

}  // namespace metropolis::services
