"""A Runloop-style scorer as a verdict checker: a scoring contract's weighted checks of the
program's behaviour, read from a scorer context, combined into a score in [0, 1].

verdict runs it as `checker input.txt output.txt answer.txt` in a sandbox of its own, with the
request's `compare.checker.files` beside them: here `scorer_context.json`, the expected
behaviour and how much each part of it weighs:

    {"expected": {"the": 3, "cat": 2},        word -> count the program must report
     "weights": {"counts": 0.8, "sorted": 0.2},
     "pass_threshold": 0.8}

The program under test reads text on stdin and prints "word count" lines, most frequent first
(ties in alphabetical order). `counts`: the share of expected words reported with the right
count; `sorted`: 1 when the lines are in that order. Exit 0 when the score reaches
pass_threshold, else 1 (testlib's convention); the first stderr line is the test's `reason`.
"""
import json
import sys


def read_counts(output):
    pairs = []
    for line in output.splitlines():
        fields = line.split()
        if len(fields) == 2 and fields[1].isdigit():
            pairs.append((fields[0], int(fields[1])))
    return pairs


def main(_input, output_path, _answer):
    with open("scorer_context.json") as f:
        ctx = json.load(f)
    with open(output_path, errors="replace") as f:
        pairs = read_counts(f.read())
    got = dict(pairs)
    expected = ctx["expected"]
    checks = {
        "counts": sum(got.get(w) == n for w, n in expected.items()) / max(len(expected), 1),
        "sorted": float(bool(pairs) and pairs == sorted(pairs, key=lambda p: (-p[1], p[0]))),
    }
    weights = ctx.get("weights", {k: 1.0 for k in checks})
    total = sum(weights.values())
    score = sum(w * checks[k] for k, w in weights.items()) / total if total else 0.0
    threshold = float(ctx.get("pass_threshold", 1.0))
    detail = ", ".join(f"{k} {checks[k]:.2f}" for k in weights)
    print(f"score {score:.2f} (pass at {threshold:g}): {detail}", file=sys.stderr)
    sys.exit(0 if score >= threshold else 1)


if __name__ == "__main__":
    main(*sys.argv[1:4])
