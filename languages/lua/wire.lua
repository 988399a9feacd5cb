-- verdict's typed wire in Lua (languages/wire.md), for the grader (grader.lua) and the host
-- (host.lua), each of which starts with this file: it defines the local `wire`. Values are
-- read with raw access only (next, rawget, math.type), so no metamethod of the program's runs
-- on the grader's side and none crosses: an integer stays an integer and a float a float
-- (written with its fraction and 17 digits), a table whose keys are 1..n is a list and any
-- other a map, and functions, userdata and threads cannot cross. Strings cross as their bytes
-- (Lua's strings are bytes: one that is not UTF-8 arrives as it left). decode is a strict
-- parser of exactly the wire's grammar that builds only plain values; it evaluates nothing.

local wire = {DEPTH = 100, LINE_MAX = 64 << 20}
local sfmt, sbyte, schar, ssub, sfind, mtype = string.format, string.byte, string.char, string.sub, string.find, math.type
local concat, tointeger, rawget, next, type, error = table.concat, math.tointeger, rawget, next, type, error

local ESC = {['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t'}
for c = 0, 31 do ESC[schar(c)] = ESC[schar(c)] or sfmt("\\u%04x", c) end
ESC["\127"] = "\\u007f"

function wire.encode_string(s)
  return '"' .. s:gsub('[%c"\\]', ESC) .. '"'
end

local function encode_number(n)
  if mtype(n) == "integer" then return sfmt("%d", n) end
  if n ~= n then return '{"float":"nan"}' end
  if n == math.huge then return '{"float":"inf"}' end
  if n == -math.huge then return '{"float":"-inf"}' end
  local s = sfmt("%.17g", n)
  if not sfind(s, "[.e]") then s = s .. ".0" end
  return s
end

local function encode(v, depth)
  if depth > wire.DEPTH then error("value nested too deeply", 0) end
  local t = type(v)
  if v == nil then return "null" end
  if t == "boolean" then return v and "true" or "false" end
  if t == "number" then return encode_number(v) end
  if t == "string" then return wire.encode_string(v) end
  if t ~= "table" then error("a " .. t .. " cannot cross to the grader", 0) end
  local n = 0
  for _ in next, v do n = n + 1 end
  local out, list = {}, true
  for i = 1, n do
    if rawget(v, i) == nil then list = false break end
  end
  if list then
    for i = 1, n do out[i] = encode(rawget(v, i), depth + 1) end
    return "[" .. concat(out, ",") .. "]"
  end
  for k, x in next, v do
    out[#out + 1] = "[" .. encode(k, depth + 1) .. "," .. encode(x, depth + 1) .. "]"
  end
  return '{"map":[' .. concat(out, ",") .. "]}"
end

function wire.encode(v) return encode(v, 0) end

-- A list of n values (n counts trailing nils: a function's results, a call's arguments).
function wire.encode_list(t, n)
  local out = {}
  for i = 1, n do out[i] = encode(t[i], 1) end
  return "[" .. concat(out, ",") .. "]"
end

-- ---- decoding --------------------------------------------------------------------------

local function fail() error("not a value of the wire", 0) end
local lengths = setmetatable({}, {__mode = "k"}) -- a decoded list's length, nils counted

local function ws(s, i) return sfind(s, "[^ \t\r\n]", i) or #s + 1 end

local UNESC = {['"'] = '"', ['\\'] = '\\', ['/'] = '/', b = '\b', f = '\f', n = '\n', r = '\r', t = '\t'}

local function str(s, i) -- s[i] is '"'
  local parts, j = {}, i + 1
  while true do
    local k = sfind(s, '["\\%z\1-\31]', j)
    if not k then fail() end
    parts[#parts + 1] = ssub(s, j, k - 1)
    local c = ssub(s, k, k)
    if c == '"' then return concat(parts), k + 1 end
    if c ~= "\\" then fail() end
    local e = ssub(s, k + 1, k + 1)
    if UNESC[e] then
      parts[#parts + 1], j = UNESC[e], k + 2
    elseif e == "u" then
      local h = ssub(s, k + 2, k + 5)
      if not sfind(h, "^%x%x%x%x$") then fail() end
      local cp = tonumber(h, 16)
      j = k + 6
      if cp >= 0xd800 and cp <= 0xdbff then
        local h2 = ssub(s, j, j + 5):match("^\\u(%x%x%x%x)$")
        local lo = h2 and tonumber(h2, 16)
        if not lo or lo < 0xdc00 or lo > 0xdfff then fail() end
        cp, j = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00), j + 6
      elseif cp >= 0xdc00 and cp <= 0xdfff then
        fail()
      end
      parts[#parts + 1] = utf8.char(cp)
    else
      fail()
    end
  end
end

local value

local function members(s, i, depth) -- s[i] follows '{'; returns {{k, v}, ...}, next
  local m = {}
  i = ws(s, i)
  if ssub(s, i, i) == "}" then return m, i + 1 end
  while true do
    if ssub(s, i, i) ~= '"' then fail() end
    local k, v
    k, i = str(s, i)
    i = ws(s, i)
    if ssub(s, i, i) ~= ":" then fail() end
    v, i = value(s, i + 1, depth)
    m[#m + 1] = {k, v}
    i = ws(s, i)
    local c = ssub(s, i, i)
    if c == "}" then return m, i + 1 end
    if c ~= "," then fail() end
    i = ws(s, i + 1)
  end
end

local SPECIAL = {nan = 0.0 / 0.0, inf = math.huge, ["-inf"] = -math.huge}

function value(s, i, depth)
  if depth > wire.DEPTH then error("value nested too deeply", 0) end
  i = ws(s, i)
  local c = ssub(s, i, i)
  if c == "[" then
    local t, n = {}, 0
    i = ws(s, i + 1)
    if ssub(s, i, i) == "]" then lengths[t] = 0 return t, i + 1 end
    while true do
      local v
      v, i = value(s, i, depth + 1)
      n = n + 1
      t[n] = v
      i = ws(s, i)
      c = ssub(s, i, i)
      if c == "]" then lengths[t] = n return t, i + 1 end
      if c ~= "," then fail() end
      i = i + 1
    end
  elseif c == "{" then
    local m
    m, i = members(s, i + 1, depth + 1)
    if #m ~= 1 then fail() end
    local k, x = m[1][1], m[1][2]
    if k == "map" and type(x) == "table" then
      local t = {}
      for j = 1, lengths[x] do
        local p = x[j]
        if type(p) ~= "table" or lengths[p] ~= 2 or p[1] == nil or p[1] ~= p[1] then fail() end
        t[p[1]] = p[2]
      end
      return t, i
    elseif (k == "tuple" or k == "set") and type(x) == "table" and lengths[x] then
      return x, i
    elseif k == "char" and type(x) == "string" and utf8.len(x) == 1 then
      return x, i
    elseif k == "float" and SPECIAL[x] then
      return SPECIAL[x], i
    end
    fail()
  elseif c == '"' then
    return str(s, i)
  elseif sfind(s, "^true", i) then
    return true, i + 4
  elseif sfind(s, "^false", i) then
    return false, i + 5
  elseif sfind(s, "^null", i) then
    return nil, i + 4
  end
  local _, e = sfind(s, "^-?0", i)
  if not e then _, e = sfind(s, "^-?[1-9]%d*", i) end
  if not e then fail() end
  local int = true
  local _, f = sfind(s, "^%.%d+", e + 1)
  if f then e, int = f, false end
  _, f = sfind(s, "^[eE][-+]?%d+", e + 1)
  if f then e, int = f, false end
  local text = ssub(s, i, e)
  local n = tonumber(text)
  if int then
    n = tointeger(n)
    if not n or sfmt("%d", n) ~= text:gsub("^%-0$", "0") then error("an integer past 64 bits", 0) end
  else
    n = n + 0.0
  end
  return n, e + 1
end

-- One message (a line without its newline) into {member = value} and the length of each list
-- member (a call's arguments, a list of results: nils counted).
function wire.parse(line)
  local i = ws(line, 1)
  if ssub(line, i, i) ~= "{" then fail() end
  local m
  m, i = members(line, i + 1, 0)
  if ws(line, i) ~= #line + 1 then fail() end
  local h, lens = {}, {}
  for _, p in ipairs(m) do
    if h[p[1]] ~= nil or lens[p[1]] then fail() end
    h[p[1]] = p[2]
    lens[p[1]] = type(p[2]) == "table" and lengths[p[2]] or false
  end
  return h, lens
end
