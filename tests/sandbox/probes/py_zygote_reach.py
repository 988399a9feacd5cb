# Attacks: what a program forked from the cell's warm interpreter (runners/zygote.h) might
# still hold of it: descriptors beyond 0-2, capabilities, root ids, a signalable root process
# (the zygote itself), privileges to regain. Contained: none.
import os
import signal
import sys

bad = []
fds = sorted(int(f) for f in os.listdir("/proc/self/fd"))
if [f for f in fds if f > 3]:  # 3 is listdir's own descriptor
    bad.append("descriptors %s" % fds)
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
for key in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
    if int(status[key], 16) != 0:
        bad.append("%s %s" % (key, status[key].strip()))
if status["NoNewPrivs"].strip() != "1" or status["Seccomp"].strip() != "2":
    bad.append("no_new_privs/seccomp %s/%s"
               % (status["NoNewPrivs"].strip(), status["Seccomp"].strip()))
if 0 in os.getresuid() or 0 in os.getresgid() or os.getgroups():
    bad.append("ids %s %s %s" % (os.getresuid(), os.getresgid(), os.getgroups()))
for pid in range(2, 4096):  # any process this job may signal must be its own (visible, same uid)
    if pid == os.getpid():
        continue
    try:
        os.kill(pid, 0)
    except (PermissionError, ProcessLookupError):
        continue
    try:
        owner = os.stat("/proc/%d" % pid).st_uid
    except OSError:
        owner = None
    if owner != os.getuid():
        bad.append("can signal pid %d (owner %s)" % (pid, owner))
for fn in (lambda: os.setuid(0), lambda: os.setgid(0), lambda: os.setgroups([0])):
    try:
        fn()
        bad.append("regained an id")
    except PermissionError:
        pass
try:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
except Exception as e:
    bad.append("signals: %r" % e)
if bad:
    print("ESCAPED: " + "; ".join(bad))
    sys.exit(1)
print("contained: no descriptor, capability, id or process of the zygote within reach")
