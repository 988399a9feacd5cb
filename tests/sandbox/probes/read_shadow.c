/* Attacks: host secrets in /etc (shadow, sudoers, ssh keys). Contained: none readable. */
#include "probe.h"

#include <fcntl.h>
#include <unistd.h>

int main(void)
{
    static const char *const secrets[] = {"/etc/shadow",
                                          "/etc/gshadow",
                                          "/etc/shadow-",
                                          "/etc/sudoers",
                                          "/etc/ssh/ssh_host_ed25519_key",
                                          "/etc/ssh/ssh_host_rsa_key"};
    char buf[64], what[64];
    for (size_t i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++) {
        int fd = open(secrets[i], O_RDONLY);
        ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
        if (r > 0) {
            printf("ESCAPED: read %zd bytes of %s\n", r, secrets[i]);
            return 1;
        }
        const char *why = fd >= 0 ? "opened but unreadable" : strerror(errno);
        snprintf(what, sizeof(what), "open %s", secrets[i]);
        note(what, why);
    }
    return contained();
}
