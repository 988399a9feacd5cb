/* Attacks: planting/altering files in the toolchain mounts (gcc, go, python, /usr/include). */
#include "probe.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    static const char *const fresh[] = {"/usr/lib/gcc/x86_64-linux-gnu/12/verdict_probe",
                                        "/usr/lib/go-1.19/verdict_probe",
                                        "/usr/lib/go-1.19/pkg/verdict_probe",
                                        "/usr/lib/jvm/verdict_probe",
                                        "/usr/local/bin/verdict_probe",
                                        "/usr/include/verdict_probe.h",
                                        "/usr/lib/python3.11/verdict_probe.py"};
    static const char *const existing[] = {"/usr/bin/gcc", "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
                                           "/usr/lib/go-1.19/bin/go", "/usr/include/stdio.h",
                                           "/usr/bin/python3"};
    for (size_t i = 0; i < sizeof(fresh) / sizeof(fresh[0]); i++) {
        int fd = open(fresh[i], O_WRONLY | O_CREAT | O_EXCL, 0755);
        if (fd >= 0) {
            unlink(fresh[i]);
            escaped("created", fresh[i]);
        }
        note_errno(fresh[i], errno);
    }
    for (size_t i = 0; i < sizeof(existing) / sizeof(existing[0]); i++) {
        if (open(existing[i], O_WRONLY | O_APPEND) >= 0)
            escaped("opened for writing", existing[i]);
        note_errno(existing[i], errno);
    }
    struct stat st; /* metadata writes that would change nothing if they went through */
    if (stat("/usr/include/stdio.h", &st) == 0) {
        if (chmod("/usr/include/stdio.h", st.st_mode & 07777) == 0)
            escaped("chmod", "/usr/include/stdio.h");
        note_errno("chmod stdio.h", errno);
        if (utimensat(AT_FDCWD, "/usr/include/stdio.h", NULL, 0) == 0)
            escaped("touched", "/usr/include/stdio.h");
        note_errno("utimensat stdio.h", errno);
    }
    return contained();
}
