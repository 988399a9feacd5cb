# Attacks: reading /etc/shadow via os.system, subprocess and open(). Contained: none gets content.
import os
import subprocess
import sys

if os.system("true") != 0:
    print("unexpected: os.system cannot run a shell")
    sys.exit(2)
rc = os.system("cat /etc/shadow >/dev/null 2>&1")
if rc == 0:
    print("ESCAPED: os.system('cat /etc/shadow') succeeded")
    sys.exit(1)
out = subprocess.run(["cat", "/etc/shadow"], capture_output=True).stdout
if out:
    print("ESCAPED: subprocess read %d bytes of /etc/shadow" % len(out))
    sys.exit(1)
try:
    with open("/etc/shadow", "rb") as f:
        data = f.read()
    if data:
        print("ESCAPED: open() read %d bytes of /etc/shadow" % len(data))
        sys.exit(1)
    reason = "open() read nothing"
except OSError as e:
    reason = "open(): %s" % e.strerror
print("contained: os.system cat exit status %d, subprocess got nothing, %s" % (rc >> 8, reason))
