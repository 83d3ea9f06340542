#include <libxml/xmlversion.h>
// libxml2 is built with ICU, and its encoding.h would include the system's ICU headers,
// which clash with the ICU copy Foundation ships (_FoundationICU) in any module importing
// both. seedgen never touches libxml2's ICU converters (only their pointers in
// xmlCharEncodingHandler move), so hide them.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#include <libxml/dict.h>

// xmlFree is a global function pointer; Swift 6 refuses to call it directly.
static inline void clibxml2_free(void *pointer) { xmlFree(pointer); }
