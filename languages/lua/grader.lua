
-- verdict's grader for Lua harnesses (languages/wire.md, docs/integrity.md); wire.lua comes
-- before it, and the bootstrap in lua.json runs both as one chunk with the tests, the setup
-- (unused) and the entry point as its arguments. It runs in a process of its own, as another
-- uid than the program (runners/job.h), with the tests on its stdin: the program can neither
-- read the tests nor reach this process. The tests run here with the real luaunit; the entry
-- point, a name their chunk sees (not a global: luaunit would take one named test_* for a
-- test), is a function that sends the call to the program (fd 4) and decodes its answer
-- (fd 3) into plain Lua values. Whatever the program does (os.exit, a luaunit of its own,
-- __eq metamethods), it can only answer calls.
-- Exit status: 0 the tests ran to their end, or exited 0 / true, with no failure; 1 a check
-- failed (luaunit's failures, a non-zero exit of the tests, an error of theirs); 2 the program
-- broke a call (it raised, exited, closed the channel or answered out of protocol).

local tests, _, entry = ...
local real_exit, stderr = os.exit, io.stderr
-- Lua opens files by name only: the channel's ends by /dev/fd/N (the cell lets each side open
-- its own again, runners/supervisor.c). Where a cell does not, a cat holds each end, the other
-- end closed in it, so that either side's exit is the other's end of file.
local fin = io.open("/dev/fd/3", "rb") or assert(io.popen("exec /bin/cat <&3 4>&- 2>/dev/null", "r"))
local fout = io.open("/dev/fd/4", "wb") or assert(io.popen("exec /bin/cat >&4 3<&- 2>/dev/null", "w"))
fout:setvbuf("no")
local state = {broken = nil, raised = false}

local function broke(why)
  state.broken = state.broken or why
  error("verdict grader: " .. state.broken, 0)
end

local function call(name, ...)
  if state.broken then error("verdict grader: " .. state.broken, 0) end
  local msg = '{"call":' .. wire.encode_string(name) .. ',"args":' .. wire.encode_list({...}, select("#", ...)) .. "}\n"
  if not fout:write(msg) then broke("the program stopped serving (it exited or closed its channel)") end
  local parts, size = {}, 0
  while true do
    local l = fin:read("L") -- never more than one answer is waiting; bounded below
    if not l then broke("the program stopped serving (it exited or closed its channel)") end
    parts[#parts + 1], size = l, size + #l
    if size > wire.LINE_MAX then broke("the program's answer is too long") end
    if l:sub(-1) == "\n" then break end
  end
  local ok, h, lens = pcall(wire.parse, table.concat(parts):sub(1, -2))
  if not ok then broke("the program answered with what is not a value") end
  local keys = {}
  for k in pairs(h) do keys[#keys + 1] = k end
  for k, l in pairs(lens) do if l ~= nil and h[k] == nil then keys[#keys + 1] = k end end
  if #keys == 1 and lens.ok then
    return table.unpack(h.ok, 1, lens.ok) -- every value the function returned
  end
  if #keys == 2 and type(h.raise) == "string" and type(h.message) == "string" then
    state.raised = true
    error(h.message, 0)
  end
  broke("the program answered out of protocol")
end

local EXIT = {}
os.exit = function(code) error(setmetatable({code = code}, EXIT), 0) end -- unwinds to here
arg = {} -- luaunit reads its options from `arg`: none
local proxy = function(...) return call(entry, ...) end
local env = setmetatable({}, {
  __index = function(_, k) if k == entry then return proxy end return _G[k] end,
  __newindex = function(_, k, v) _G[k] = v end,
})

local passed = true
local chunk, err = load(tests, "=tests", "t", env)
if not chunk then
  stderr:write(err, "\n")
  passed = false
else
  local ok, e = xpcall(chunk, function(e)
    if getmetatable(e) == EXIT then return e end
    return debug.traceback(tostring(e), 2)
  end)
  if not ok then
    if getmetatable(e) == EXIT then
      passed = e.code == nil or e.code == true or e.code == 0
    else
      stderr:write(tostring(e), "\n")
      passed = false
    end
  end
end
local status = 0
if state.broken then
  status = 2
  stderr:write("verdict grader: ", state.broken, "\n")
elseif not passed then
  status = state.raised and 2 or 1
end
io.stdout:flush()
real_exit(status, false) -- no closing of the state: that would wait for the cats
