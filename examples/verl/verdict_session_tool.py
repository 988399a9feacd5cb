"""A veRL multi-turn tool over verdict's sessions (`/v1/sessions`): the model's code runs in
one sandbox kept for its rollout, so what a call defines (names, imports, files) is there
for the next call, as in a notebook.

Shaped as veRL's tools are (`verl.tools.base_tool.BaseTool`): `create` opens a session
(`POST /v1/sessions`), `execute` runs `parameters["code"]` in it (`POST
/v1/sessions/{id}/exec`) and returns the text the model sees, `calc_reward` sums the calls'
rewards, `release` closes it (`DELETE /v1/sessions/{id}`). Without veRL installed it uses
small stand-ins of the same shape, so it can be loaded and tested anywhere.

Config (the `config:` mapping of veRL's tool config, see session_tool_config.yaml):
    verdict_url      the server (default $VERDICT_URL, else http://127.0.0.1:8080)
    language         the session's language (default python)
    memory_limit_mb  memory of the whole session (the server's default: 512)
    call_timeout     seconds one call may run, wall clock and CPU (default 30)
    idle_timeout     seconds without a call before the server closes the session (default 300)
    lifetime         seconds a session may live (default 3600)
    limits           any other session limit of the API, by its name (pids, cpu_ms, ...)
    num_workers, rate_limit
                     requests this tool has in flight at once, per process (the smaller of
                     the two; default 32)
    session_scope    "instance" (default): a session from create to release.
                     "trajectory": one session per rollout, keyed by the agent loop's
                     request id, for loops that create and release the tool around every
                     call (veRL's tool_agent loop); the server closes it after idle_timeout,
                     or release_trajectory(request_id) does.
    busy_retries     503 answers (no free session or cell) retried, Retry-After apart (default 30)
    ok_reward, error_reward
                     the step reward of a call that ran clean / did not (default 0.0 both)
"""
import asyncio
import copy
import functools
import logging
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from uuid import uuid4

import requests

logger = logging.getLogger(__name__)


# Stand-ins of the same shape for veRL's classes, used when veRL is not installed.
class _Function:
    def __init__(self, name, description="", parameters=None, strict=False):
        self.name, self.description, self.strict = name, description, strict
        self.parameters = parameters or {"type": "object", "properties": {}, "required": []}


class _ToolSchema:
    """veRL's OpenAIFunctionToolSchema (a pydantic model): `.type`, `.function.name`,
    model_validate, model_dump."""

    def __init__(self, type="function", function=None):
        self.type = type
        self.function = _Function(**function)
        self._raw = {"type": type, "function": copy.deepcopy(function)}

    @classmethod
    def model_validate(cls, d):
        return cls(**d)

    def model_dump(self, **kwargs):
        return copy.deepcopy(self._raw)


class _BaseTool:
    """veRL's BaseTool: config, tool_schema and name."""

    def __init__(self, config, tool_schema):
        self.config = config
        self.tool_schema = tool_schema or self.get_openai_tool_schema()
        self.name = self.tool_schema.function.name

    def get_openai_tool_schema(self):
        return self.tool_schema


class _ToolResponse:
    """veRL's ToolResponse: text, image, video."""

    def __init__(self, text=None, image=None, video=None):
        self.text, self.image, self.video = text, image, video

    def __repr__(self):
        return f"ToolResponse(text={self.text!r})"


try:
    from verl.tools.base_tool import BaseTool
    from verl.tools.schemas import OpenAIFunctionToolSchema
    HAVE_VERL = True
except ImportError:
    BaseTool, OpenAIFunctionToolSchema, HAVE_VERL = _BaseTool, _ToolSchema, False
try:
    from verl.tools.schemas import ToolResponse
    HAVE_TOOL_RESPONSE = True
except ImportError:
    ToolResponse, HAVE_TOOL_RESPONSE = _ToolResponse, False
try:
    from verl.utils.rollout_trace import rollout_trace_op
except ImportError:
    def rollout_trace_op(fn):
        return fn

# veRL before ToolResponse: create returns the instance id and execute the text; since, create
# returns (instance id, ToolResponse) and execute a ToolResponse.
PAIRED = HAVE_TOOL_RESPONSE or not HAVE_VERL

DEFAULT_SCHEMA = {
    "type": "function",
    "function": {
        "name": "code_interpreter",
        "description": "Run Python code in a sandbox. State (variables, imports, files) is kept "
                       "between calls. The output of print, the value of the last expression "
                       "and any error's traceback are returned.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "description": "the code to run"}},
            "required": ["code"],
        },
    },
}

LIMIT_NOTES = {
    "wall": "Timed out after {t:g} s.",
    "cpu": "Timed out: the call used up its CPU time ({t:g} s).",
    "session_cpu": "The session's CPU time budget is spent: no more code can run in it.",
}


def session_limits(config):
    """The `limits` of POST /v1/sessions from the tool config (seconds -> ms)."""
    call_ms = int(float(config.get("call_timeout", 30)) * 1000)
    limits = {"call_wall_ms": call_ms, "call_time_ms": min(call_ms, 300000)}
    if config.get("memory_limit_mb") is not None:
        limits["memory_mb"] = limits["call_memory_mb"] = int(config["memory_limit_mb"])
    if config.get("idle_timeout") is not None:
        limits["idle_ms"] = int(float(config["idle_timeout"]) * 1000)
    if config.get("lifetime") is not None:
        limits["lifetime_ms"] = int(float(config["lifetime"]) * 1000)
    limits.update(config.get("limits") or {})
    return limits


def _record():
    return {"session": None, "lock": None, "rewards": [], "used": time.monotonic()}


class VerdictSessionTool(BaseTool):
    """veRL tool: a verdict session per rollout (see the module's docstring)."""

    def __init__(self, config: dict, tool_schema=None):
        config = dict(config or {})
        if tool_schema is None:
            tool_schema = OpenAIFunctionToolSchema.model_validate(DEFAULT_SCHEMA)
        elif isinstance(tool_schema, dict):
            tool_schema = OpenAIFunctionToolSchema.model_validate(tool_schema)
        super().__init__(config, tool_schema)
        self.url = (config.get("verdict_url") or os.environ.get("VERDICT_URL")
                    or "http://127.0.0.1:8080").rstrip("/")
        self.language = config.get("language", "python")
        self.call_timeout = float(config.get("call_timeout", 30))
        self.idle_timeout = float(config.get("idle_timeout", 300))
        self.limits = session_limits(config)
        workers = int(config.get("num_workers", 32))
        self.concurrency = max(1, min(workers, int(config.get("rate_limit", workers))))
        self.scope = config.get("session_scope", "instance")
        if self.scope not in ("instance", "trajectory"):
            raise ValueError(f"session_scope: instance or trajectory, not {self.scope!r}")
        self.busy_retries = int(config.get("busy_retries", 30))
        self.ok_reward = float(config.get("ok_reward", 0.0))
        self.error_reward = float(config.get("error_reward", 0.0))
        self._instances = {}     # instance id -> record (rewards; "instance" scope: the session)
        self._trajectories = {}  # agent loop's request id -> record (its session)
        self._pool_ = None       # threads doing the HTTP calls, made on first use
        self._local = None

    def __getstate__(self):
        # veRL deep-copies the tools it builds: threads and open sessions stay behind
        state = self.__dict__.copy()
        state.update(_instances={}, _trajectories={}, _pool_=None, _local=None)
        return state

    def get_openai_tool_schema(self):
        return getattr(self, "tool_schema", None) or \
            OpenAIFunctionToolSchema.model_validate(DEFAULT_SCHEMA)

    # ---- HTTP ---------------------------------------------------------------------------------

    def _pool(self):
        if self._pool_ is None:
            self._pool_ = ThreadPoolExecutor(self.concurrency, thread_name_prefix="verdict-tool")
            self._local = threading.local()
        return self._pool_

    def _http(self, method, path, body, timeout):
        """(status, JSON) of one request, a 503 retried after its Retry-After (bounded);
        status None when the server could not be reached."""
        s = getattr(self._local, "session", None)
        if s is None:
            s = self._local.session = requests.Session()
        for attempt in range(self.busy_retries + 1):
            try:
                r = s.request(method, self.url + path, json=body, timeout=(10, timeout))
            except requests.RequestException as e:
                logger.warning("verdict at %s: %s", self.url, e)
                return None, {"detail": f"{type(e).__name__} at {self.url}"}
            if r.status_code == 503 and attempt < self.busy_retries:
                try:
                    wait = float(r.headers.get("Retry-After", 1))
                except ValueError:
                    wait = 1.0
                time.sleep(min(max(wait, 0.1), 10.0))
                continue
            try:
                data = r.json()
            except ValueError:
                data = {"detail": r.text[:200]}
            return r.status_code, data if isinstance(data, dict) else {"detail": data}
        return None, {"detail": "unreachable"}  # not reached: the last try returns

    async def _call(self, method, path, body=None, timeout=30.0):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool(), functools.partial(self._http, method, path, body, timeout))

    async def _open(self):
        """A new session's id, or (None, why)."""
        body = {"language": self.language, "limits": self.limits}
        status, data = await self._call("POST", "/v1/sessions", body)
        if status == 201:
            return data["id"], None
        if status == 422:  # the tool's config: say so loudly
            raise ValueError(f"verdict refused the session's config: {data.get('detail')}")
        return None, f"{status or 'unreachable'}: {data.get('detail')}"

    async def _close(self, sid):
        status, data = await self._call("DELETE", f"/v1/sessions/{sid}")
        if status not in (200, 404, 410):
            logger.warning("closing verdict session %s: %s %s", sid[:12], status,
                           data.get("detail"))

    # ---- veRL's tool interface -------------------------------------------------------------------

    async def create(self, instance_id=None, **kwargs):
        instance_id = instance_id or str(uuid4())
        rec = self._instances[instance_id] = _record()
        if self.scope == "instance":
            rec["session"], why = await self._open()
            if why:
                logger.warning("no verdict session yet (%s): the first call opens one", why)
        return (instance_id, ToolResponse()) if PAIRED else instance_id

    @rollout_trace_op
    async def execute(self, instance_id, parameters, **kwargs):
        code = parameters.get("code", "")
        if not isinstance(code, str):
            code = str(code)
        inst = self._instances.setdefault(instance_id, _record())
        holder = self._holder(inst, kwargs)
        if holder["lock"] is None:
            holder["lock"] = asyncio.Lock()
        async with holder["lock"]:  # a session runs one call at a time
            text, metrics = await self._run(holder, code)
            holder["used"] = time.monotonic()
        reward = self.ok_reward if metrics["verdict"] == "OK" else self.error_reward
        inst["rewards"].append(reward)
        return (ToolResponse(text=text) if PAIRED else text), reward, metrics

    async def calc_reward(self, instance_id, **kwargs):
        rec = self._instances.get(instance_id)
        return float(sum(rec["rewards"])) if rec else 0.0

    async def release(self, instance_id, **kwargs):
        rec = self._instances.pop(instance_id, None)
        if rec and rec["session"]:
            await self._close(rec["session"])

    async def release_trajectory(self, request_id):
        """Closes the session of a rollout ("trajectory" scope) now rather than at its idle
        timeout."""
        rec = self._trajectories.pop(request_id, None)
        if rec and rec["session"]:
            await self._close(rec["session"])

    # ---- the call ------------------------------------------------------------------------------

    def _holder(self, inst, kwargs):
        """The record holding the session a call runs in: the rollout's in "trajectory"
        scope (when the loop says which), else the instance's."""
        if self.scope != "trajectory":
            return inst
        rid = kwargs.get("request_id") or getattr(kwargs.get("agent_data"), "request_id", None)
        if not rid:
            return inst
        now = time.monotonic()
        for k in [k for k, r in self._trajectories.items()  # the server closed these
                  if now - r["used"] > self.idle_timeout + 60 and not
                  (r["lock"] and r["lock"].locked())]:
            del self._trajectories[k]
        return self._trajectories.setdefault(rid, _record())

    async def _run(self, rec, code):
        """(text for the model, metrics) of one call in rec's session, opening one when it
        has none, and a fresh one (once) when the server closed it."""
        notes = []
        metrics = {"verdict": "SE", "status": "SandboxError", "cpu_ms": 0, "wall_ms": 0,
                   "state": None, "call": None, "reopened": False}
        body = {"code": code}
        for attempt in range(2):
            if rec["session"] is None:
                rec["session"], why = await self._open()
                if why:
                    return f"The sandbox is unavailable ({why}); the code did not run.", metrics
            status, r = await self._call("POST", f"/v1/sessions/{rec['session']}/exec", body,
                                         timeout=self.call_timeout + 60)
            if status in (404, 410) and attempt == 0:
                reason = r.get("reason") or "closed"
                rec["session"] = None
                metrics["reopened"] = True
                notes.append(f"[The sandbox session had ended ({reason}); this ran in a new one: "
                             "variables, imports and files from earlier calls are lost.]\n")
                continue
            break
        if status != 200:
            why = f"{status or 'unreachable'}: {r.get('detail')}"
            return "".join(notes) + f"The sandbox could not run the code ({why}).", metrics
        metrics.update(verdict=r.get("verdict"), status=r.get("status"), cpu_ms=r.get("cpu_ms", 0),
                       wall_ms=r.get("wall_ms", 0), state=r.get("state"), call=r.get("call"))
        return "".join(notes) + self.format_result(r), metrics

    def format_result(self, r):
        """What the model sees of an exec answer: compile errors, stdout, stderr, displayed
        values (text/plain), the error's traceback, and a line on a limit or a lost state."""
        parts = []

        def add(text):
            if text:
                if parts and not parts[-1].endswith("\n"):
                    parts.append("\n")
                parts.append(text)

        comp = r.get("compile")
        if comp and comp.get("verdict") not in (None, "OK"):
            add(comp.get("stdout", ""))
            add(comp.get("stderr", ""))
            add("Compilation failed.\n" if comp.get("verdict") == "CE" else
                f"Compilation failed ({comp.get('verdict')}).\n")
        add(r.get("stdout", ""))
        add(r.get("stderr", ""))
        for item in r.get("display") or []:
            if "text/plain" in item:
                add(item["text/plain"] + "\n")
        error = r.get("error")
        if error and error.get("traceback"):
            add("\n".join(error["traceback"]) + "\n")
        elif error:
            add(f"{error.get('ename')}: {error.get('evalue')}\n")
        verdict = r.get("verdict")
        if verdict == "RE" and not error:
            if r.get("exit_code") is not None:
                add(f"Exit code {r['exit_code']}.\n")
        elif verdict == "TLE":
            note = LIMIT_NOTES.get(r.get("limit"), LIMIT_NOTES["wall"])
            add(note.format(t=self.call_timeout) + "\n")
        elif verdict == "MLE":
            add("Memory limit exceeded: the call was killed.\n")
        elif verdict == "OLE":
            add("Output limit exceeded: the output was cut.\n")
        elif verdict == "SE":
            add(f"Sandbox error: {r.get('message') or 'unknown'}\n")
        elif r.get("output_truncated"):
            add("[output truncated]\n")
        if r.get("state") == "lost":
            add("The interpreter was restarted: variables and imports defined so far are lost "
                "(files in the working directory remain).\n")
        return "".join(parts)
