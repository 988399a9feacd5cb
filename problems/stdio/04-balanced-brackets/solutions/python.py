import sys

OPENING = {ord("("), ord("["), ord("{")}
MATCH = {ord(")"): ord("("), ord("]"): ord("["), ord("}"): ord("{")}


def balanced(s):
    if len(s) % 2:
        return False
    stack = []
    push, pop = stack.append, stack.pop
    for c in s:  # iterating over bytes yields ints
        if c in OPENING:
            push(c)
        elif not stack or pop() != MATCH[c]:
            return False
    return not stack


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    out = ["YES" if balanced(s) else "NO" for s in data[1:t + 1]]
    sys.stdout.write("\n".join(out) + "\n")


main()
