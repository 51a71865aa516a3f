// libxml2 from the system (Debian: libxml2-dev): only its push parser (SAX2) is used, never the
// tree API.
#include <libxml/parser.h>
#include <libxml/xmlerror.h>
