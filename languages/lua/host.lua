
-- The program's side of the grader's channel (runners/job.h: fd 3 in, fd 4 out), loaded and
-- called by the program's main chunk after its own code as `verdict_host.lua` (wire.lua
-- before this). It holds no secret and decides nothing: it answers the grader's calls, one per
-- line (languages/wire.md), and the grader trusts nothing it says beyond the values it
-- carries.
--   {"call":NAME,"args":[...]}  the main chunk's local function NAME (MultiPL-E's prompts
--                               declare `local function`), else the global NAME
-- The answer is {"ok":[every value it returned]} or {"raise":"","message":TEXT}.

local funcs = {}
for i = 1, 255 do -- the caller's (the main chunk's) locals in scope; a later one shadows
  local name, v = debug.getlocal(2, i)
  if not name then break end
  if type(v) == "function" and name:sub(1, 1) ~= "(" then funcs[name] = v end
end

local function answer(line)
  local h, lens = wire.parse(line)
  local n = 0
  for _ in pairs(h) do n = n + 1 end
  if n ~= 2 or type(h.call) ~= "string" or not lens.args then error("not a call", 0) end
  local f = funcs[h.call] or rawget(_G, h.call)
  if type(f) ~= "function" then error("attempt to call a nil value (global '" .. h.call .. "')", 0) end
  local r = table.pack(f(table.unpack(h.args, 1, lens.args)))
  return '{"ok":' .. wire.encode_list(r, r.n) .. "}"
end

-- Lua opens files by name only: the channel's ends by /dev/fd/N (the cell lets each side open
-- its own again, runners/supervisor.c). Where a cell does not, a cat holds each end, the other
-- end closed in it, so that either side's exit is the other's end of file.
local fin = io.open("/dev/fd/3", "rb") or assert(io.popen("exec /bin/cat <&3 4>&- 2>/dev/null", "r"))
local fout = io.open("/dev/fd/4", "wb") or assert(io.popen("exec /bin/cat >&4 3<&- 2>/dev/null", "w"))
fout:setvbuf("no")
-- An exit of the program's that would close the state (os.exit(code, true)) would wait for the
-- reading cat, which waits for the grader, which waits for this process: never close it.
local real_exit = os.exit
os.exit = function(code) return real_exit(code, false) end
for line in fin:lines("L") do
  local ok, out = pcall(answer, line:sub(-1) == "\n" and line:sub(1, -2) or line)
  if not ok then
    local text = type(out) == "string" and out or "(an error value: " .. type(out) .. ")"
    out = '{"raise":"","message":' .. wire.encode_string(text:sub(1, 2000)) .. "}"
  end
  pcall(io.stdout.flush, io.stdout)
  fout:write(out, "\n")
end
