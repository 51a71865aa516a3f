// libxml2 from the system (Debian: libxml2-dev): only its streaming reader (xmlTextReader) is
// used, never the tree API.
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>
