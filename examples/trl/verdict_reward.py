"""A TRL GRPO reward function backed by verdict's /v1/judge/batch (standard library only).

    from verdict_reward import verdict_reward
    trainer = GRPOTrainer(model=..., reward_funcs=[verdict_reward], train_dataset=ds, ...)

TRL calls a reward function with the batch's completions and, as keyword arguments, the
prompts and every other column of the dataset, one value per completion. This one reads:

    tests        a list of {"stdin": ..., "expected": ...} per row (or a JSON string of it), or
    harness      test code per row (Python: asserts against the program; see docs/api.md),
    entry_point  (optional, with harness) the function the tests call,
    language     (optional) the row's language; else the `language` argument (python).

Each completion (a string, or a chat-style list of {"role", "content"} messages: the last
assistant message is taken) becomes one item of a /v1/judge/batch request with
"extract": true, so verdict takes the code out of the completion's fenced block itself.
The items go in as few requests as fit the server's body limit (`max_body`, read once from
/healthz) and its batch bound (MAX_BATCH items): a batch whose tests are large is split by
bytes, never sent whole to be refused. The answer is NDJSON, one line per item; each line
names its item's id, so the rewards come back in the completions' order. Items whose line
never came (the stream was cut: a replica behind a balancer stopped or died mid-batch) or came
back "busy" (the server's queue was full, or it was stopping) are sent again, alone of their
batch, up to `retries` more rounds, so that a stopped replica costs a resend and not a reward.
A 413 (the body still too large) is never sent again as it was: the request is split in two.

A completion the judge answered gets its reward (0.0 for a wrong or non-compiling answer).
One the infrastructure failed (its item alone past the body limit, invalid, busy, a sandbox
error, no line, a server that cannot be reached) gets None and a log line: TRL leaves a None
out of the step's rewards, where a 0.0 would teach the policy that a correct answer was wrong.

The server is VERDICT_URL (default http://127.0.0.1:8080) unless `url` is given.
"""
import http.client
import json
import logging
import os
import time
import urllib.error
import urllib.request

log = logging.getLogger("verdict_reward")

DEFAULT_URL = "http://127.0.0.1:8080"
MAX_BATCH = 4096  # items in one /v1/judge/batch request (docs/api.md)
DEFAULT_MAX_BODY = 16 << 20  # serve's default --max-body, where /healthz does not say it
BODY_SLACK = 1024  # the batch body's own bytes besides its items'


class TooLarge(Exception):
    """The server answered 413: the body is past its --max-body."""


def completion_text(completion):
    """The text of a completion: a string as it is; of a chat-style list of messages, the last
    assistant message's content (content may be a string or a list of {"type": "text",
    "text"} parts)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    messages = [m for m in completion or [] if isinstance(m, dict)]
    chosen = [m for m in messages if m.get("role") == "assistant"] or messages
    if not chosen:
        return ""
    content = chosen[-1].get("content", "")
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def _column(columns, name, i):
    values = columns.get(name)
    if values is None or i >= len(values):
        return None
    return values[i]


def build_items(completions, columns, language="python", limits=None):
    """One /v1/judge body per completion, with id = its index; columns: TRL's keyword
    arguments (the dataset's columns)."""
    items = []
    for i, completion in enumerate(completions):
        item = {"id": i, "language": _column(columns, "language", i) or language,
                "code": completion_text(completion), "extract": True}
        harness = _column(columns, "harness", i)
        tests = _column(columns, "tests", i)
        if harness:
            item["harness"] = harness
            entry = _column(columns, "entry_point", i)
            if entry:
                item["entry_point"] = entry
        else:
            if isinstance(tests, str):
                tests = json.loads(tests)
            item["tests"] = tests or []
        if limits:
            item["limits"] = limits
        items.append(item)
    return items


def server_max_body(server, timeout=10.0):
    """The server's request body limit, from /healthz (DEFAULT_MAX_BODY where it does not say,
    or cannot be asked)."""
    try:
        with urllib.request.urlopen(server.rstrip("/") + "/healthz", timeout=timeout) as r:
            return int(json.loads(r.read()).get("max_body") or DEFAULT_MAX_BODY)
    except (OSError, ValueError, http.client.HTTPException):
        return DEFAULT_MAX_BODY


def chunks(items, ids, max_body):
    """ids split into requests of at most MAX_BATCH items whose JSON bodies stay under
    max_body; the ids of items that alone are past it come back apart (too_large)."""
    out, too_large, cur, size = [], [], [], BODY_SLACK
    for i in ids:
        n = len(json.dumps(items[i]).encode()) + 2
        if n + BODY_SLACK > max_body:
            too_large.append(i)
            continue
        if cur and (size + n > max_body or len(cur) >= MAX_BATCH):
            out.append(cur)
            cur, size = [], BODY_SLACK
        cur.append(i)
        size += n
    if cur:
        out.append(cur)
    return out, too_large


def _post_batch(url, items, timeout, retries, client, lines):
    """Appends the batch's NDJSON lines, as dicts, to lines as they come (those read before a
    failure stay). Retries a 503 (the queue is full, or the server stopping) after its
    Retry-After, and a refused connection, up to `retries` more times; a 413 raises
    TooLarge at once (sending it again would be refused again)."""
    body = json.dumps({"items": items}).encode()
    headers = {"Content-Type": "application/json", "X-Verdict-Client": client}
    for attempt in range(retries + 1):
        req = urllib.request.Request(url.rstrip("/") + "/v1/judge/batch", data=body,
                                     headers=headers, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                for raw in resp:  # one result per line, as each item finishes
                    raw = raw.strip()
                    if raw:
                        lines.append(json.loads(raw))
                return
        except urllib.error.HTTPError as e:
            if e.code == 413:
                raise TooLarge(f"{len(body)} bytes") from e
            if e.code != 503 or attempt == retries:
                raise
            wait = float(e.headers.get("Retry-After") or 1)
        except urllib.error.URLError as e:
            if attempt == retries or not isinstance(e.reason, ConnectionRefusedError):
                raise
            wait = 1.0
        log.warning("verdict busy or unreachable; retrying in %.0f s", wait)
        time.sleep(wait)


def _send(server, items, ids, timeout, retries, client, lines):
    """One request for ids (their lines appended to lines), split in two on a 413 until a
    single item is left, which is then given up (logged; the caller finds no line for it)."""
    got = []
    try:
        _post_batch(server, [items[i] for i in ids], timeout, retries, client, got)
    except TooLarge as e:
        if len(ids) == 1:
            log.error("completion %d: its request alone is past the server's body limit (%s)",
                      ids[0], e)
            return
        half = len(ids) // 2
        log.warning("verdict refused %d items as too large (%s): sending them in two", len(ids),
                    e)
        for part in (ids[:half], ids[half:]):
            _send(server, items, part, timeout, retries, client, lines)
        return
    except (OSError, ValueError, http.client.HTTPException) as e:
        # urllib's errors are OSErrors, bad JSON a ValueError, a cut stream HTTP's
        log.error("verdict batch of %d failed after %d lines: %s", len(ids), len(got), e)
    lines.extend(got)


def _judge(server, items, timeout, retries, client, max_body):
    """{item id: its NDJSON line} for the items answered. Each round sends the items with no
    line yet, in requests under max_body bytes and MAX_BATCH items; a "busy" line counts as
    none, and is kept only if the last round also ends busy."""
    answered, busy = {}, {}
    pending = list(range(len(items)))
    for rnd in range(retries + 1):
        requests, too_large = chunks(items, pending, max_body)
        for i in too_large:
            log.error("completion %d: its item alone is past the server's body limit (%d "
                      "bytes): not sent", i, max_body)
        for ids in requests:
            lines = []
            _send(server, items, ids, timeout, retries, client, lines)
            for line in lines:
                i = line.get("id")
                if not isinstance(i, int) or not 0 <= i < len(items):
                    log.error("verdict answered an unknown item id %r", i)
                elif (line.get("error") or {}).get("type") == "busy":
                    busy[i] = line
                else:
                    answered[i] = line
                    busy.pop(i, None)
        pending = [i for i in range(len(items)) if i not in answered and i not in too_large]
        if not pending or rnd == retries:
            break
        log.warning("%d completions not judged yet (busy, or the stream was cut); sending "
                    "them again", len(pending))
        time.sleep(1)
    return {**busy, **answered}


def make_verdict_reward(url=None, language="python", timeout=300.0, retries=2, limits=None,
                        client="trl"):
    """A reward function for TRL with its settings bound. timeout: seconds the HTTP client
    waits for each read of the answer (the whole batch streams, so it bounds the gap between
    two finished items); retries: how many more times a refused or busy request, and the
    items a cut stream left unanswered, are sent; limits: verdict's per-test limits
    ({"time_ms", "memory_mb"}, ...)."""

    max_body = {}  # per server: asked once

    def verdict_reward(completions, **kwargs):
        server = url or os.environ.get("VERDICT_URL") or DEFAULT_URL
        if not completions:
            return []
        if server not in max_body:
            max_body[server] = server_max_body(server)
        items = build_items(completions, kwargs, language=language, limits=limits)
        rewards = [None] * len(items)  # None: the infrastructure failed it, not the policy
        lines = _judge(server, items, timeout, retries, client, max_body[server])
        for i, line in sorted(lines.items()):
            if "error" in line:
                log.error("completion %d not judged: %s", i, line["error"])
                continue
            result = line.get("result") or {}
            if result.get("status") == "SE":
                log.error("completion %d: sandbox error: %s", i, result.get("message"))
                continue
            rewards[i] = float(result.get("reward") or 0.0)
        missing = [i for i in range(len(items)) if i not in lines]
        if missing:
            log.error("completions %s: no result in verdict's answer: reward None", missing)
        return rewards

    verdict_reward.__name__ = "verdict_reward"  # TRL logs each reward under its name
    return verdict_reward


verdict_reward = make_verdict_reward()
