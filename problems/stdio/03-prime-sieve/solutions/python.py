import sys


def main():
    data = sys.stdin.buffer.read().split()
    q = int(data[0])
    qs = list(map(int, data[1:q + 1]))
    n = max(2, max(qs))

    sieve = bytearray([1]) * (n + 1)  # sieve[i] == 1 iff i is prime
    sieve[0] = sieve[1] = 0
    i = 2
    while i * i <= n:
        if sieve[i]:
            sieve[i * i::i] = bytes((n - i * i) // i + 1)
        i += 1

    # Answer the queries in increasing order, counting the primes in each new stretch.
    ans = [0] * q
    counted_to = 0  # sieve[0:counted_to] has been counted
    total = 0
    for idx in sorted(range(q), key=qs.__getitem__):
        end = qs[idx] + 1
        if end > counted_to:
            total += sieve.count(1, counted_to, end)
            counted_to = end
        ans[idx] = total
    sys.stdout.write("\n".join(map(str, ans)) + "\n")


main()
