/* xml.h — internal to reports/: escaping text for XML documents (SVG charts, JUnit). */
#ifndef CC_REPORT_XML_H
#define CC_REPORT_XML_H

#include "text.h"

/* Appends s with &, <, >, " and ' escaped as entities; characters XML 1.0 cannot carry
 * (control characters other than tab, newline and carriage return, and bytes that are not
 * valid UTF-8) become U+FFFD. */
void cc_xml_text(cc_text *t, const char *s);

#endif
