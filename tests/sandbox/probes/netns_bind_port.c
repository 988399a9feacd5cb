/* Attacks: binding the driver's port argv[1] on 127.0.0.1. Contained: free here (own netns). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: netns_bind_port PORT\n");
        return 2;
    }
    int port = atoi(argv[1]);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof(a)) < 0) {
        if (errno == EADDRINUSE) { /* the host's listener is visible: the loopback is shared */
            printf("ESCAPED: 127.0.0.1:%d is in use, the host's loopback is shared\n", port);
            return 1;
        }
        printf("unexpected: bind 127.0.0.1:%d: %s\n", port, strerror(errno));
        return 2;
    }
    int c = socket(AF_INET, SOCK_STREAM, 0);
    if (listen(s, 1) < 0 || c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)) < 0 ||
        accept(s, NULL, NULL) < 0) {
        printf("unexpected: loopback unusable: %s\n", strerror(errno));
        return 2;
    }
    printf("contained: bound and connected to 127.0.0.1:%d inside its own netns\n", port);
    return 0;
}
