#!/usr/bin/python3
"""A bounded load generator for `verdict serve` on 127.0.0.1: N mixed requests (every
language, hostile programs, malformed bodies) from C concurrent clients. It prints what came
back and the server's resident memory and open descriptors before and after; it asserts
nothing (a benchmark), but exits 1 if any request went unanswered.

usage: load_mixed.py URL SERVER_PID [N=10000] [C=32]
"""
import concurrent.futures
import os
import random
import sys
import time

import requests

URL, PID = sys.argv[1], int(sys.argv[2])
N = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
C = int(sys.argv[4]) if len(sys.argv) > 4 else 32
DEADLINE = time.monotonic() + 900  # never more than 15 minutes

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


def request(i):
    if time.monotonic() > DEADLINE:
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
            res = requests.post(URL + "/run_code", data=bad[i % len(bad)], timeout=60)
            return res.status_code
        res = requests.post(URL + "/run_code", json=body, timeout=60)
        return res.status_code
    except requests.RequestException as e:
        return type(e).__name__


def rss_fds():
    with open(f"/proc/{PID}/status") as f:
        rss = next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
    return rss, len(os.listdir(f"/proc/{PID}/fd"))


def main():
    rss0, fds0 = rss_fds()
    start = time.monotonic()
    counts = {}
    with concurrent.futures.ThreadPoolExecutor(C) as ex:
        for status in ex.map(request, range(N)):
            counts[status] = counts.get(status, 0) + 1
    elapsed = time.monotonic() - start
    time.sleep(1)
    rss1, fds1 = rss_fds()
    print(f"{N} requests from {C} clients in {elapsed:.1f} s ({N / elapsed:.0f}/s)")
    print("answers:", dict(sorted(counts.items(), key=str)))
    print(f"server RSS {rss0} KiB -> {rss1} KiB, open fds {fds0} -> {fds1}")
    unanswered = sum(v for k, v in counts.items() if not isinstance(k, int))
    return 1 if unanswered else 0


if __name__ == "__main__":
    sys.exit(main())
