#include <pthread.h>
#include <stdio.h>
static int v;
static void *work(void *a) { (void)a; v = 42; return NULL; }
int main(void) { pthread_t t; pthread_create(&t, NULL, work, NULL); pthread_join(t, NULL); printf("%d\n", v); return 0; }
