/* Firmware's view of hive: the one header (tests/limits/CMakeLists.txt
 * compiles it with a limit defined otherwise than hive was built with). */
#include "hive/hive.h"

int uses_hive_pool_max(void) { return HIVE_POOL_MAX; }
