/*
 * A module of the judge room that includes a header of the http room, above it: the layering
 * test builds this file against verdict_judge's include roots and expects the build to fail.
 */
#include "server/http/api.h"

int layering_reversed(void);
int layering_reversed(void)
{
    return 0;
}
