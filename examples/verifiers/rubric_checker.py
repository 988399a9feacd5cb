"""A Verifiers-style rubric as a verdict checker: weighted reward functions over the program's
output, summed, and a pass threshold.

verdict runs it as `checker input.txt output.txt answer.txt` in a sandbox of its own, with the
request's `compare.checker.files` beside them: here `rubric.json`, the rubric's context
(which functions count, their weights, the threshold), so one checker serves every rubric.

    {"funcs": [{"name": "correct_answer", "weight": 1.0}, {"name": "format", "weight": 0.2}],
     "threshold": 1.0}

Exit status (testlib's convention, as verdict reads it): 0 when the weighted score reaches the
threshold, 1 when it does not; the first line on stderr is the test's `reason`.
"""
import json
import re
import sys


def parse_answer(output):
    """The text after "Answer:" on the output's last line that has one, or None."""
    found = re.findall(r"^Answer:\s*(.*?)\s*$", output, re.MULTILINE)
    return found[-1] if found else None


def correct_answer(output, answer, ctx):
    got = parse_answer(output)
    return 1.0 if got is not None and got == answer.strip() else 0.0


def format_ok(output, answer, ctx):
    """One line, and it is "Answer: <something>"."""
    lines = output.strip().splitlines()
    return 1.0 if len(lines) == 1 and parse_answer(lines[0]) else 0.0


def brevity(output, answer, ctx):
    return 1.0 if len(output) <= ctx.get("max_chars", 80) else 0.0


FUNCS = {"correct_answer": correct_answer, "format": format_ok, "brevity": brevity}


def main(_input, output_path, answer_path):
    with open("rubric.json") as f:
        rubric = json.load(f)
    with open(output_path, errors="replace") as f:
        output = f.read()
    with open(answer_path) as f:
        answer = f.read()
    total = score = 0.0
    parts = []
    for spec in rubric["funcs"]:
        weight = float(spec.get("weight", 1.0))
        value = FUNCS[spec["name"]](output, answer, rubric)
        total += weight
        score += weight * value
        parts.append(f"{spec['name']} {value:g}x{weight:g}")
    score = score / total if total else 0.0
    threshold = float(rubric.get("threshold", 1.0))
    print(f"score {score:.2f} (threshold {threshold:g}): {', '.join(parts)}", file=sys.stderr)
    sys.exit(0 if score >= threshold else 1)


if __name__ == "__main__":
    main(*sys.argv[1:4])
