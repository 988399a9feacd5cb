local hog = {}
local i = 0
while true do
    i = i + 1
    hog[i] = string.rep("x", 1 << 20) .. i
end
