/* Attacks: the driver's stdin writer, by exiting without reading. Contained: no hang, no SE, OK. */
#include <stdio.h>

int main(void)
{
    printf("ignored stdin\n");
    return 0;
}
