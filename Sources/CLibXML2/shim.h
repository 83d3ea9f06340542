#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#include <libxml/xmlerror.h>

// xmlFree is a global function pointer; Swift 6 refuses to call it directly.
static inline void clibxml2_free(void *pointer) { xmlFree(pointer); }
