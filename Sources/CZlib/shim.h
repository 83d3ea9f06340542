#include <zlib.h>

// deflateInit2 and inflateInit2 are macros that pass the library version and struct size.
static inline int czlib_deflate_init2(z_streamp strm, int level, int method, int windowBits, int memLevel, int strategy) {
    return deflateInit2(strm, level, method, windowBits, memLevel, strategy);
}
static inline int czlib_inflate_init2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
