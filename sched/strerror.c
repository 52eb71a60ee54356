/*
 * hive_strerror: the name of each error code (include/hive/hive.h).
 */
#include "hive/hive.h"

const char *hive_strerror(int err)
{
    switch (err) {
    case HIVE_OK: return "HIVE_OK";
    case HIVE_EINVAL: return "HIVE_EINVAL";
    case HIVE_EBUSY: return "HIVE_EBUSY";
    case HIVE_ENOMEM: return "HIVE_ENOMEM";
    case HIVE_ESTATE: return "HIVE_ESTATE";
    case HIVE_EUNWAITED: return "HIVE_EUNWAITED";
    default: return "unknown";
    }
}
