"""examples/verl/verdict_session_tool.py, veRL's multi-turn tool over /v1/sessions, driven as
veRL's rollouts drive a tool, against a real server: rollouts at once, each create, a call
per turn with its state carried (a name defined, an error, a timeout, the name still there),
calc_reward, release; the tool_agent loop's way (create and release around every call, one
session per rollout by its request id); a session the server closed behind the tool's back
(reopened once, the model told its state was lost); a full server (503, retried); the
shipped YAML config; an unreachable server (text for the model, never an exception)."""
import asyncio
import copy
import os
import time

import pytest
import requests

from conftest import EXAMPLES, Server, load_example, wait_for


@pytest.fixture(scope="module")
def mod():
    return load_example("verl/verdict_session_tool.py")


def make(mod, url, **config):
    return mod.VerdictSessionTool({"verdict_url": url, **config}, None)


def session_of(tool, instance_id):
    return tool._instances[instance_id]["session"]


def get(server, sid):
    return requests.get(f"{server.url}/v1/sessions/{sid}", timeout=30)


def open_sessions(server):
    return server.get_json("/v1/sessions")


def drive(*coros, timeout=120):
    """Runs the coroutines at once on a new event loop (bounded), as a rollout worker's loop
    runs its rollouts; their results in order (one coroutine: its result)."""
    async def main():
        return await asyncio.wait_for(asyncio.gather(*coros), timeout)
    got = asyncio.run(main())
    return got[0] if len(coros) == 1 else got


class AgentData:
    """What veRL's tool_agent loop passes to execute (agent_data=): its request id."""

    def __init__(self, request_id):
        self.request_id = request_id


def test_rollouts_carry_state_and_release(server, mod):
    tool = make(mod, server.url, call_timeout=2, idle_timeout=60, ok_reward=1.0)
    assert tool.name == "code_interpreter" and tool.limits["call_wall_ms"] == 2000

    async def rollout(k):
        iid, created = await tool.create()  # veRL with ToolResponse: (id, ToolResponse)
        assert isinstance(iid, str) and created.text is None
        sid = session_of(tool, iid)
        assert sid and len(sid) == 40, sid
        turns = [
            f"base = {k}\ndef f(v):\n    return v * base\nprint('defined', base)",
            "f(10) + 1",
            "raise ValueError(f'bad {base}')",
            "import time\nprint('waiting', flush=True)\ntime.sleep(30)",
            "print(f(base), end='')",
        ]
        seen = []
        for code in turns:
            resp, reward, metrics = await tool.execute(iid, {"code": code})
            seen.append((resp.text, reward, metrics))
        total = await tool.calc_reward(iid)
        await tool.release(iid)
        return sid, seen, total

    t0 = time.monotonic()
    got = drive(*(rollout(k) for k in range(2, 6)))
    took = time.monotonic() - t0
    sids = [g[0] for g in got]
    assert len(set(sids)) == 4, sids
    for k, (sid, seen, total) in zip(range(2, 6), got):
        texts = [s[0] for s in seen]
        verdicts = [s[2]["verdict"] for s in seen]
        assert verdicts == ["OK", "OK", "RE", "TLE", "OK"], (verdicts, texts)
        assert texts[0] == f"defined {k}\n", texts
        assert texts[1] == f"{10 * k + 1}\n", texts  # the last expression, as Jupyter's Out
        assert texts[2].startswith("Traceback (most recent call last):"), texts[2]
        assert texts[2].rstrip("\n").endswith(f"ValueError: bad {k}"), texts[2]
        assert texts[3].startswith("waiting\n") and "Timed out after 2 s." in texts[3], texts[3]
        assert "restarted" not in texts[3], texts[3]  # a timeout the cell gave up: state kept
        assert texts[4] == str(k * k), texts  # f and base outlived the error and the timeout
        assert [s[2]["state"] for s in seen][0] == "new" and seen[4][2]["state"] == "kept", seen
        assert [s[1] for s in seen] == [1.0, 1.0, 0.0, 0.0, 1.0] and total == 3.0, seen
        r = get(server, sid)  # release closed it
        assert r.status_code == 410 and r.json().get("reason") == "deleted", r.text
    assert took < 60, f"4 rollouts took {took:.1f} s"
    listing = open_sessions(server)
    assert listing["open"] == 0 and listing["sessions"] == [], listing
    assert not tool._instances


def test_tool_agent_loop_one_session_per_trajectory(server, mod):
    """veRL's tool_agent loop creates and releases the tool around every call and passes
    agent_data: with session_scope trajectory the calls of one rollout share a session."""
    tool = make(mod, server.url, session_scope="trajectory", idle_timeout=2)

    async def call(request_id, code):  # ToolAgentLoop._call_tool's order
        iid, _ = await tool.create(create_kwargs={})
        try:
            resp, _, metrics = await tool.execute(iid, {"code": code},
                                                  agent_data=AgentData(request_id))
        finally:
            await tool.release(iid)
        return resp.text, metrics

    async def rollout(rid, k):
        a = await call(rid, f"acc = [{k}]\nwith open('k.txt', 'w') as f:\n    f.write('{k}')")
        b = await call(rid, "acc.append(len(acc))\nacc")
        c = await call(rid, "print(open('k.txt').read(), acc)")
        return a, b, c

    rids = ["rollout-a", "rollout-b"]
    got = drive(rollout(rids[0], 7), rollout(rids[1], 8))
    for k, (a, b, c) in zip((7, 8), got):
        assert a[0] == "" and a[1]["state"] == "new", a
        assert b[0] == f"[{k}, 1]\n" and c[0] == f"{k} [{k}, 1]\n", (b, c)
    sids = [tool._trajectories[r]["session"] for r in rids]
    assert len(set(sids)) == 2 and not tool._instances
    for sid in sids:  # a per-call release left the rollout's session open
        assert get(server, sid).status_code == 200
    # one closed now; the other by the server once idle for idle_timeout
    drive(tool.release_trajectory(rids[0]))
    assert get(server, sids[0]).json().get("reason") == "deleted"
    def idle_closed():
        r = get(server, sids[1])
        return r.status_code == 410 and r.json()

    gone = wait_for("the idle session closed", idle_closed, timeout=15, step=0.25)
    assert gone.get("reason") == "idle", gone
    # the rollout calls again: a new session, and the model is told what was lost
    text, metrics = drive(call(rids[1], "print('acc' in globals())"))
    assert text.startswith("[The sandbox session had ended (idle); this ran in a new one"), text
    assert text.endswith("False\n") and metrics["reopened"] and metrics["verdict"] == "OK", text
    drive(tool.release_trajectory(rids[1]))
    assert open_sessions(server)["open"] == 0


def test_session_closed_behind_the_tools_back(server, mod):
    tool = make(mod, server.url)

    async def run():
        iid, _ = await tool.create()
        old = session_of(tool, iid)
        first = await tool.execute(iid, {"code": "x = 5\nwith open('f.txt', 'w') as f:\n    f.write('kept')"})
        r = requests.delete(f"{server.url}/v1/sessions/{old}", timeout=30)
        assert r.status_code == 200 and r.json()["state"] == "closed", r.text
        check = "import os\nprint(globals().get('x'), os.path.exists('f.txt'))"
        second = await tool.execute(iid, {"code": check})
        new = session_of(tool, iid)
        third = await tool.execute(iid, {"code": "x = 6\nopen('f.txt', 'w').write('kept')\nx"})
        # the interpreter dies: the model is told, files stay, names go
        lost = await tool.execute(iid, {"code": "import os\nos._exit(3)"})
        after = await tool.execute(iid, {"code": "print(open('f.txt').read(), 'x' in globals())"})
        await tool.release(iid)
        return old, new, first, second, third, lost, after

    old, new, first, second, third, lost, after = drive(run())
    assert first[0].text == "" and first[2]["verdict"] == "OK", first
    resp, _, metrics = second
    text = resp.text
    assert text == ("[The sandbox session had ended (deleted); this ran in a new one: variables, "
                    "imports and files from earlier calls are lost.]\nNone False\n"), text
    assert metrics["reopened"] and metrics["state"] == "new" and new != old, metrics
    assert third[0].text == "6\n" and not third[2]["reopened"], third
    assert lost[2]["state"] == "lost", lost
    assert "The interpreter was restarted" in lost[0].text, lost[0].text
    assert after[0].text == "kept False\n" and after[2]["state"] == "restarted", after
    for sid in (old, new):
        assert get(server, sid).status_code == 410


def test_compiled_language_session(server, mod):
    """A C session: each call compiles and runs; the work dir's files carry over; a compile
    error and an exit code are told to the model."""
    tool = make(mod, server.url, language="c", call_timeout=5)
    write = ('#include <stdio.h>\nint main(void) { FILE *f = fopen("n.txt", "w");\n'
             'fprintf(f, "41"); fclose(f); puts("wrote"); return 0; }\n')
    read = ('#include <stdio.h>\nint main(void) { int n = 0; FILE *f = fopen("n.txt", "r");\n'
            'if (f) fscanf(f, "%d", &n); printf("%d\\n", n + 1); return 0; }\n')

    async def run():
        iid, _ = await tool.create()
        out = [await tool.execute(iid, {"code": c}) for c in
               (write, read, "int main(void) { return oops; }", "int main(void) { return 3; }")]
        await tool.release(iid)
        return out

    out = drive(run())
    texts = [o[0].text for o in out]
    assert [o[2]["verdict"] for o in out] == ["OK", "OK", "CE", "RE"], (out, texts)
    assert texts[0] == "wrote\n" and texts[1] == "42\n", texts
    assert "oops" in texts[2] and texts[2].endswith("Compilation failed.\n"), texts[2]
    assert texts[3] == "Exit code 3.\n", texts[3]


def test_full_server_waits_for_a_session():
    """--max-sessions 1: a second rollout's create is answered 503 and retried after
    Retry-After until the first releases its session."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root")
    mod = load_example("verl/verdict_session_tool.py")
    s = Server(cells=2, extra=["--max-sessions", "1"])
    try:
        tool = make(mod, s.url, busy_retries=20)

        async def first():
            iid, _ = await tool.create()
            await tool.execute(iid, {"code": "y = 1"})
            await asyncio.sleep(1.5)
            await tool.release(iid)
            return time.monotonic()

        async def second():
            await asyncio.sleep(0.3)  # after the first holds the only session
            iid, _ = await tool.create()
            opened = time.monotonic()
            resp, _, metrics = await tool.execute(iid, {"code": "print('y' in globals())"})
            await tool.release(iid)
            return opened, resp.text, metrics

        released, (opened, text, metrics) = drive(first(), second())
        assert opened >= released - 0.05, "the second session opened before the first closed"
        assert text == "False\n" and metrics["state"] == "new", (text, metrics)
        assert s.get_json("/v1/sessions")["totals"]["refused"] >= 1
    finally:
        code, left = s.stop()
    assert code == 0 and not left


def test_yaml_config_builds_the_tool(server, mod):
    yaml = pytest.importorskip("yaml")
    with open(os.path.join(EXAMPLES, "verl", "session_tool_config.yaml")) as f:
        cfg = yaml.safe_load(f)
    (entry,) = cfg["tools"]
    assert entry["class_name"].rsplit(".", 1) == ["verdict_session_tool", "VerdictSessionTool"]
    assert entry["config"]["type"] == "native"  # veRL's registry requires it
    fn = entry["tool_schema"]["function"]
    assert entry["tool_schema"]["type"] == "function" and fn["name"] == "code_interpreter"
    assert fn["parameters"]["required"] == ["code"] and "code" in fn["parameters"]["properties"]
    # as veRL builds it: the config mapping and the schema validated; then deep-copied
    schema = mod.OpenAIFunctionToolSchema.model_validate(entry["tool_schema"])
    tool = mod.VerdictSessionTool({**entry["config"], "verdict_url": server.url}, schema)
    tool = copy.deepcopy(tool)
    assert tool.scope == entry["config"]["session_scope"] and tool.name == "code_interpreter"
    assert tool.get_openai_tool_schema().model_dump() == entry["tool_schema"]

    async def run():
        iid, _ = await tool.create()
        resp, reward, metrics = await tool.execute(iid, {"code": "sum(range(10))"},
                                                   agent_data=AgentData("yaml-rollout"))
        await tool.release(iid)
        await tool.release_trajectory("yaml-rollout")
        return resp.text, reward, metrics

    text, reward, metrics = drive(run())
    assert text == "45\n" and reward == 0.0 and metrics["verdict"] == "OK", (text, metrics)
    copy.deepcopy(tool)  # still copyable after use (its threads stay behind)
    assert open_sessions(server)["open"] == 0


def test_unreachable_server_is_text_not_an_exception(mod):
    tool = make(mod, "http://127.0.0.1:9", busy_retries=0)

    async def run():
        iid, _ = await tool.create()
        out = await tool.execute(iid, {"code": "1"})
        await tool.release(iid)
        return out, await tool.calc_reward(iid)

    (resp, reward, metrics), total = drive(run())
    assert resp.text.startswith("The sandbox is unavailable (unreachable:"), resp.text
    assert metrics["verdict"] == "SE" and reward == 0.0 and total == 0.0, metrics
