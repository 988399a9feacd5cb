import sys


def main():
    lines = sys.stdin.buffer.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline that ends the last line
    out = [b" ".join(reversed(line.split())) for line in lines]
    if out:
        sys.stdout.buffer.write(b"\n".join(out) + b"\n")


main()
