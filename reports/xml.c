/* xml.c — XML text escaping for the SVG and JUnit writers. */
#include "xml.h"

#include <string.h>

#define REPLACEMENT "\xef\xbf\xbd"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not valid. */
static int utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80) return 1;
    int n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;   /* overlong */
    if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0;  /* surrogates */
    if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;   /* overlong */
    if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0;  /* above U+10FFFF */
    return n;
}

void cc_xml_text(cc_text *t, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        switch (*p) {
        case '&': cc_text_put(t, "&amp;"); p++; continue;
        case '<': cc_text_put(t, "&lt;"); p++; continue;
        case '>': cc_text_put(t, "&gt;"); p++; continue;
        case '"': cc_text_put(t, "&quot;"); p++; continue;
        case '\'': cc_text_put(t, "&apos;"); p++; continue;
        default: break;
        }
        if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') {
            cc_text_put(t, REPLACEMENT);
            p++;
            continue;
        }
        int n = utf8_len(p);
        if (n == 0) {
            cc_text_put(t, REPLACEMENT);
            p++;
            continue;
        }
        cc_text_putn(t, (const char *)p, (size_t)n);
        p += n;
    }
}
