#!/usr/bin/python3
"""A bounded load generator for `verdict serve` on 127.0.0.1: N mixed requests (every
language, hostile programs, malformed bodies) from C concurrent clients. It prints what came
back and the server's resident memory and open descriptors before and after; it asserts
nothing (a benchmark), but exits 1 if any request went unanswered.

usage: load_mixed.py URL SERVER_PID [N=10000] [C=32]

benchmarks/store_overhead.py imports run() to compare servers with the store on and off.
"""
import concurrent.futures
import os
import random
import sys
import time

import requests

DEADLINE_S = 900  # never more than 15 minutes

PROGRAMS = [
    ("python", "print(sum(map(int, input().split())))", "1 2"),
    ("c", "#include <stdio.h>\nint main(void){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}", "3 4"),
    ("cpp", "#include <iostream>\nint main(){int a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}", "5 6"),
    ("go", "package main\nimport \"fmt\"\nfunc main(){var a,b int;fmt.Scan(&a,&b);fmt.Println(a+b)}", "7 8"),
    ("rust", "use std::io::*;fn main(){let mut s=String::new();stdin().read_to_string(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();println!(\"{}\",v[0]+v[1]);}", "9 10"),
    ("nodejs", "const [a,b]=require('fs').readFileSync(0,'utf8').trim().split(' ').map(Number);console.log(a+b)", "11 12"),
    ("java", "import java.util.*;public class Main{public static void main(String[] x){Scanner s=new Scanner(System.in);System.out.println(s.nextInt()+s.nextInt());}}", "13 14"),
    ("bash", "read a b; echo $((a+b))", "15 16"),
]
HOSTILE = [
    "import os\nwhile True: os.fork()",
    "x = []\nwhile True: x.append(bytearray(1 << 20))",
    "while True: print('x' * 10000)",
    "import os; os.kill(-1, 9)",
    "open('/etc/shadow').read()",
    "import socket; socket.create_connection(('1.1.1.1', 80), timeout=1)",
]


def request(url, i, deadline):
    """The i-th request of the mix (the same for the same i); its status or error name."""
    if time.monotonic() > deadline:
        return "skipped"
    r = random.Random(i)
    kind = r.random()
    try:
        if kind < 0.70:
            lang, code, stdin = PROGRAMS[i % len(PROGRAMS)]
            body = dict(code=code, language=lang, stdin=stdin, run_timeout=5)
        elif kind < 0.85:
            body = dict(code=HOSTILE[i % len(HOSTILE)], language="python", run_timeout=1,
                        memory_limit_MB=64)
        else:
            bad = [b"{not json", b'{"code": 5}', b'{"code": "x", "language": "cobol"}',
                   b'{"code": "x", "run_timeout": -1}', b"[]"]
            res = requests.post(url + "/run_code", data=bad[i % len(bad)], timeout=60,
                                headers={"Content-Type": "application/json"})
            return res.status_code
        res = requests.post(url + "/run_code", json=body, timeout=60)
        return res.status_code
    except requests.RequestException as e:
        return type(e).__name__


def rss_fds(pid):
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


def run(url, first, n, c, deadline=None):
    """Requests first..first+n-1 of the mix from c clients: ({status: count}, seconds)."""
    deadline = deadline or time.monotonic() + DEADLINE_S
    start = time.monotonic()
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(c) as ex:
        for status in ex.map(lambda i: request(url, i, deadline), range(first, first + n)):
            counts[status] = counts.get(status, 0) + 1
    return counts, time.monotonic() - start


def main():
    url, pid = sys.argv[1], int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    c = int(sys.argv[4]) if len(sys.argv) > 4 else 32
    rss0, fds0 = rss_fds(pid)
    counts, elapsed = run(url, 0, n, c)
    time.sleep(1)
    rss1, fds1 = rss_fds(pid)
    print(f"{n} requests from {c} clients in {elapsed:.1f} s ({n / elapsed:.0f}/s)")
    print("answers:", dict(sorted(counts.items(), key=str)))
    print(f"server RSS {rss0} KiB -> {rss1} KiB, open fds {fds0} -> {fds1}")
    unanswered = sum(v for k, v in counts.items() if not isinstance(k, int))
    return 1 if unanswered else 0


if __name__ == "__main__":
    sys.exit(main())
