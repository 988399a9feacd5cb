while true do
end
