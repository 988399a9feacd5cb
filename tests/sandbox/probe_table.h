/*
 * Hostile probes and what the sandbox must make of them. Only the body of an initializer: the
 * driver defines struct probe_case and includes this file inside
 * `static const struct probe_case probes[] = {` ... `};`.
 * Conventions (see each probe's first line): an attack prints one "contained: ..." line and
 * exits 0 when it failed as it should, "ESCAPED: ..." and exit 1 when it worked; the driver
 * rejects "ESCAPED" in any stdout and runs probes/canary.c after every probe.
 * Formatting is off for the body: clang-format would indent a bare initializer as a continuation.
 */

/* clang-format off */
/* Resource bombs: the limit verdicts. */
{.name = "fork_bomb", .file = "fork_bomb.c", .expect = "TLE|RE", .pids = 16},
{.name = "thread_bomb", .file = "thread_bomb.c", .expect = "TLE|RE"},
{.name = "sh_fork_bomb", .file = "sh_fork_bomb.sh", .expect = "TLE|RE|OK"},
{.name = "malloc_bomb", .file = "malloc_bomb.c", .expect = "MLE", .mem_mb = 64},
{.name = "mmap_bomb", .file = "mmap_bomb.c", .expect = "MLE"},
{.name = "py_mem_bomb", .file = "py_mem_bomb.py", .expect = "MLE"},
{.name = "stack_recursion", .file = "stack_recursion.c", .expect = "MLE|RE"},
{.name = "cpu_spin", .file = "cpu_spin.c", .expect = "TLE"},
{.name = "mt_cpu_spin", .file = "mt_cpu_spin.c", .expect = "TLE", .time_ms = 500},
{.name = "sleep_wall", .file = "sleep_wall.c", .expect = "TLE", .wall_ms = 1500},
{.name = "stdout_flood", .file = "flood.c", .expect = "OLE", .args = {"1"}},
{.name = "stderr_flood", .file = "flood.c", .expect = "OLE", .args = {"2"}, .output_kb = 64},

/* Memory outside the program's own pages: socket buffers, pipes, SysV shm,
 * memfd and tmpfs must be charged (MLE) or refused under a small limit, never held by the
 * hundreds of MiB. Eight workers each; the probe prints what it held. */
{.name = "tcp_hold", .file = "mem_hold.c", .expect = "OK|MLE", .args = {"tcp", "32"},
 .mem_mb = 32, .wall_ms = 15000, .time_ms = 5000},
{.name = "udp_hold", .file = "mem_hold.c", .expect = "OK|MLE", .args = {"udp", "32"},
 .mem_mb = 32, .wall_ms = 15000, .time_ms = 5000},
{.name = "pipe_hold", .file = "mem_hold.c", .expect = "OK|MLE", .args = {"pipe", "32"},
 .mem_mb = 32, .wall_ms = 15000, .time_ms = 5000},
{.name = "sysv_shm_hold", .file = "mem_hold.c", .expect = "OK|MLE", .args = {"shm", "32"},
 .mem_mb = 32, .wall_ms = 15000, .time_ms = 5000},
{.name = "memfd_hold", .file = "mem_hold.c", .expect = "OK|MLE", .args = {"memfd", "32"},
 .mem_mb = 32, .wall_ms = 15000, .time_ms = 5000},
{.name = "tmpfs_hold", .file = "mem_hold.c", .expect = "OK|MLE", .args = {"tmpfs", "32"},
 .mem_mb = 32, .wall_ms = 15000, .time_ms = 5000},

/* Limits that must hold without killing the job. */
{.name = "tmp_fill", .file = "fill_tmpfs.c", .expect = "OK", .stdout_has = "contained:",
 .args = {"/tmp"}},
{.name = "shm_fill", .file = "fill_tmpfs.c", .expect = "OK", .stdout_has = "contained:",
 .args = {"/dev/shm"}},
{.name = "file_limits", .file = "file_limits.c", .expect = "OK", .stdout_has = "contained:"},
/* RLIMIT_MEMLOCK refuses it (OK), or the pinned pages hit the cgroup limit (MLE). */
{.name = "mlock_large", .file = "mlock_large.c", .expect = "OK|MLE"},
{.name = "huge_stdin", .file = "huge_stdin.c", .expect = "OK",
 .stdout_has = "read 8388608 bytes", .stdin_mb = 8},
{.name = "ignore_stdin", .file = "ignore_stdin.c", .expect = "OK", .stdout_has = "ignored stdin",
 .stdin_mb = 8},
{.name = "huge_argv", .file = "huge_argv.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "close_fds", .file = "close_fds.c", .expect = "OK", .stdout_has = "contained:"},

/* File system: nothing outside /w, /tmp, /dev/shm is writable; host secrets are absent. */
{.name = "write_outside", .file = "write_outside.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "write_toolchain", .file = "write_toolchain.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "proc_sys_write", .file = "proc_sys_write.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "proc_sysrq", .file = "proc_sysrq.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "read_shadow", .file = "read_shadow.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "py_system_shadow", .file = "py_system_shadow.py", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "py_zygote_reach", .file = "py_zygote_reach.py", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "read_root_home", .file = "read_root_home.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "kcore_mem", .file = "kcore_mem.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "mknod_dev", .file = "mknod_dev.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "cgroup_escape", .file = "cgroup_escape.c", .expect = "OK", .stdout_has = "contained:"},

/* Result fetch: links and special files must be refused (without hanging); a plain file not. */
{.name = "symlink_out", .file = "symlink_out.c", .expect = "OK", .stdout_has = "symlink created",
 .args = {"/etc/passwd"}, .fetch = "out.txt", .fetch_must_fail = 1},
{.name = "symlink_out_relative", .file = "symlink_out.c", .expect = "OK",
 .stdout_has = "symlink created", .args = {"../../../../../../../../etc/shadow"},
 .fetch = "out.txt", .fetch_must_fail = 1},
{.name = "fifo_out", .file = "fifo_out.c", .expect = "OK", .stdout_has = "fifo created",
 .fetch = "out.txt", .fetch_must_fail = 1},
{.name = "fetch_regular", .file = "fetch_regular.c", .expect = "OK",
 .stdout_has = "wrote out.txt", .fetch = "out.txt"},
/* The canary after it must find /w, /tmp and /dev/shm empty. */
{.name = "leave_files", .file = "leave_files.c", .expect = "OK", .stdout_has = "left files"},
/* SysV IPC outlives processes: the cell must remove what a job leaves. */
{.name = "sysv_ipc_leave", .file = "sysv_ipc_leave.c", .expect = "OK",
 .stdout_has = "contained:"},

/* Processes: other jobs, the host and the cell are out of reach; nothing outlives the job. */
{.name = "proc_scan", .file = "proc_scan.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "proc1_access", .file = "proc1_access.c", .expect = "OK", .stdout_has = "contained:"},
/* Channels between jobs; flock on shared files is test_flock_between_cells. */
{.name = "inotify_usr", .file = "inotify_usr.c", .expect = "OK", .stdout_has = "contained:"},
/* Linux spares the caller of kill(-1): the probe reports, the canary proves the cell lives. */
{.name = "kill_all", .file = "kill_all.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "kill_init", .file = "kill_init.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "ptrace_sibling", .file = "ptrace_sibling.c", .expect = "OK",
 .stdout_has = "contained:"},
/* Leftover processes and /tmp/daemon.txt are for the canary to catch. */
{.name = "orphan_daemon", .file = "orphan_daemon.c", .expect = "OK",
 .stdout_has = "spawned daemon"},
{.name = "orphan_daemon_stdio", .file = "orphan_daemon.c", .expect = "OK",
 .stdout_has = "spawned daemon", .args = {"keep-stdio"}},
{.name = "orphan_fork_churn", .file = "orphan_fork_churn.c", .expect = "OK",
 .stdout_has = "spawned churn"},

/* Network: only a private loopback. */
{.name = "tcp_host_port", .file = "tcp_host_port.c", .expect = "OK", .stdout_has = "contained:",
 .args = {"@PORT"}},
{.name = "netns_bind_port", .file = "netns_bind_port.c", .expect = "OK",
 .stdout_has = "contained:", .args = {"@PORT"}},
{.name = "udp_host_port", .file = "udp_host_port.c", .expect = "OK", .stdout_has = "contained:",
 .args = {"@PORT"}},
{.name = "net_outside", .file = "net_outside.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "unix_host_sockets", .file = "unix_host_sockets.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "socket_families", .file = "socket_families.c", .expect = "OK",
 .stdout_has = "contained:"},

/* Privileges and system calls. */
{.name = "sandbox_state", .file = "sandbox_state.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "inherited_leaks", .file = "inherited_leaks.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "mount_attempts", .file = "mount_attempts.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "unshare_setns", .file = "unshare_setns.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "clone_newns", .file = "clone_newns.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "kernel_surface", .file = "kernel_surface.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "privileged_syscalls", .file = "privileged_syscalls.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "identity_changes", .file = "identity_changes.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "priority_tricks", .file = "priority_tricks.c", .expect = "OK",
 .stdout_has = "contained:"},
{.name = "tiocsti", .file = "tiocsti.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "setuid_mount", .file = "setuid_mount.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "setuid_su", .file = "setuid_su.c", .expect = "OK", .stdout_has = "contained:"},
{.name = "chmod_suid_copy", .file = "chmod_suid_copy.c", .expect = "OK",
 .stdout_has = "contained:"},
/* Foreign syscall ABIs kill the process (SIGSYS): no output expected, surviving prints ESCAPED. */
{.name = "int80_abi", .file = "int80_abi.c", .expect = "RE"},
{.name = "x32_abi", .file = "x32_abi.c", .expect = "RE"},
    /* clang-format on */
