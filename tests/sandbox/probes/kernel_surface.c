/* Attacks: risky kernel interfaces (keyrings, bpf, perf, io_uring, userfaultfd, fanotify). */
#include "probe.h"

#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/io_uring.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/fanotify.h>
#include <sys/syscall.h>
#include <unistd.h>

#define KEY_SPEC_PROCESS_KEYRING (-2)
#define KEY_SPEC_SESSION_KEYRING (-3)
#define KEYCTL_GET_KEYRING_ID    0

int main(void)
{
    must_fail("add_key", syscall(SYS_add_key, "user", "verdict", "x", 1, KEY_SPEC_PROCESS_KEYRING));
    must_fail("request_key", syscall(SYS_request_key, "user", "verdict", NULL, 0));
    must_fail("keyctl", syscall(SYS_keyctl, KEYCTL_GET_KEYRING_ID, KEY_SPEC_SESSION_KEYRING, 1));
    union bpf_attr map = {
        .map_type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 1};
    must_fail("bpf map", syscall(SYS_bpf, BPF_MAP_CREATE, &map, sizeof(map)));
    struct bpf_insn prog[] = {{.code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0},
                              {.code = BPF_JMP | BPF_EXIT}};
    union bpf_attr load = {.prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
                           .insns = (uint64_t)(uintptr_t)prog,
                           .insn_cnt = 2,
                           .license = (uint64_t)(uintptr_t) "GPL"};
    must_fail("bpf prog", syscall(SYS_bpf, BPF_PROG_LOAD, &load, sizeof(load)));
    struct perf_event_attr pe = {.type = PERF_TYPE_SOFTWARE,
                                 .size = sizeof(pe),
                                 .config = PERF_COUNT_SW_CPU_CLOCK,
                                 .disabled = 1,
                                 .exclude_kernel = 1,
                                 .exclude_hv = 1};
    must_fail("perf_event_open", syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0));
    struct io_uring_params up = {0};
    must_fail("io_uring_setup", syscall(SYS_io_uring_setup, 4, &up));
    must_fail("userfaultfd", syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
    must_fail("/dev/userfaultfd", open("/dev/userfaultfd", O_RDWR));
    must_fail("fanotify_init", fanotify_init(FAN_CLASS_NOTIF, O_RDONLY));
    return contained();
}
