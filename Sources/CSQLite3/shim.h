#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: Swift cannot import it.
static inline sqlite3_destructor_type csqlite3_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic. Turning off memory statistics removes a global mutex taken on
// every allocation; it must run before SQLite is initialized (later it returns SQLITE_MISUSE,
// harmlessly).
static inline int csqlite3_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
