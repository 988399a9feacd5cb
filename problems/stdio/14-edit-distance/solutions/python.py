import sys


def edit_distance(s, t):
    # prev[j]: distance between the current prefix of s minus one character and t[:j]
    prev = list(range(len(t) + 1))
    for i, a in enumerate(s, 1):
        cur = [i]
        left = i
        # diag = prev[j - 1], up = prev[j]; neighbouring cells differ by at most 1, so on a
        # match the diagonal is always the best choice
        for b, diag, up in zip(t, prev, prev[1:]):
            if a == b:
                left = diag
            else:
                if up < left:
                    left = up
                if diag < left:
                    left = diag
                left += 1
            cur.append(left)
        prev = cur
    return prev[-1]


def main():
    s, t = sys.stdin.read().split()[:2]
    print(edit_distance(s, t))


main()
