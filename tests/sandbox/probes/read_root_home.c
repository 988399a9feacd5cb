/* Attacks: host trees (/root, /home, /work, /var, /run). Contained: absent or empty. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    static const char *const files[] = {
        "/root/.bashrc",        "/root/.profile",       "/root/.rustup/settings.toml",
        "/root/.cargo/env",     "/root/.pyenv/version", "/root/.ssh/authorized_keys",
        "/work/main/README.md", "/var/log/syslog"};
    /* Host trees that must not show at all. /root, /opt and the like may hold mount points of
     * toolchain binds, so there only the files above are checked. */
    static const char *const dirs[] = {"/home", "/work", "/var", "/run"};
    char buf[64];
    int absent = 0;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        int fd = open(files[i], O_RDONLY);
        ssize_t r = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
        if (r > 0) {
            printf("ESCAPED: read %zd bytes of %s\n", r, files[i]);
            return 1;
        }
        absent++;
    }
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        DIR *d = opendir(dirs[i]);
        struct dirent *e;
        while (d && (e = readdir(d)))
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                printf("ESCAPED: %s is visible and lists %s\n", dirs[i], e->d_name);
                return 1;
            }
        if (d)
            closedir(d);
    }
    printf("contained: %d host files unreadable, %zu host dirs absent or empty (/root: %s)\n",
           absent, sizeof(dirs) / sizeof(dirs[0]),
           access("/root", F_OK) == 0 ? "present" : strerror(errno));
    return 0;
}
